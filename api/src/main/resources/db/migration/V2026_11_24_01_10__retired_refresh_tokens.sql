-- Refresh tokens rotated away (issue 16): each refresh replaces the grant's refresh token, and the
-- old one is remembered here until it would have expired, so presenting it again is recognised as
-- reuse (a stolen copy) and the whole grant is revoked. Only a SHA-256 of the value is kept.
-- The primary key is also what lets one of two refreshes racing with the same token win: the
-- second insert of the same hash fails.
-- grant_id: oauth2_authorization.id; client_id: its registered_client_id; subject: its principal.
CREATE TABLE retired_refresh_tokens (
    token_hash BINARY(32)   NOT NULL,
    grant_id   VARCHAR(100) NOT NULL,
    client_id  VARCHAR(100) NOT NULL,
    subject    VARCHAR(200) NOT NULL,
    expires_at DATETIME(6)  NOT NULL,
    PRIMARY KEY (token_hash),
    KEY retired_refresh_tokens_expiry (expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
