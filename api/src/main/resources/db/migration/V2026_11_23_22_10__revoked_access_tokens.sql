-- The OAuth deny-list's record. Redis answers the per-request check; this table is what Redis is
-- rebuilt from when it loses its keys (a restart without persistence, a flush), so a revoked
-- access token never comes back before it expires. A row lives as long as the tokens it refuses.
-- kind: 'T' refuses one access token by its jti, 'G' every access token of a grant.
CREATE TABLE revoked_access_tokens (
    subject    VARCHAR(200) NOT NULL,
    kind       CHAR(1)      NOT NULL,
    ref        VARCHAR(100) NOT NULL,
    expires_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (subject, kind, ref),
    KEY revoked_access_tokens_expiry (expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
