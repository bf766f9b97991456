-- Issue 19, filter rules. Append-only.
-- A person's rules (sharded by user), applied when items are delivered to their inbox (fan-out and
-- a new subscription's back-fill). action: keep_only, drop, mark_read, star; field: any, title,
-- summary, url, author, tags; kind: text (a case-folded substring) or regex (RE2J); pattern as the
-- person wrote it, at most Rules.MAX_PATTERN_LENGTH characters. source_id / folder_id: the rule's
-- scope (both NULL: every source of the person). matched: deliveries the rule acted on, moved in
-- the delivering transaction. At most tributary.limits.rules a person (PersonQuotas).
CREATE TABLE rules (
    user_id    BIGINT        NOT NULL,
    id         BIGINT        NOT NULL,
    action     VARCHAR(16)   NOT NULL,
    field      VARCHAR(16)   NOT NULL,
    kind       VARCHAR(8)    NOT NULL,
    pattern    VARCHAR(500)  NOT NULL,
    source_id  BIGINT        NULL,
    folder_id  BIGINT        NULL,
    matched    BIGINT        NOT NULL DEFAULT 0,
    created_at DATETIME(6)   NOT NULL,
    PRIMARY KEY (user_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
