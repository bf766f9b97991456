-- Issue 14, the unread horizon. Append-only.
-- Unread entries a person lost to trimming (past tributary.inbox.max-entries or older than
-- tributary.inbox.keep), counted in the trimming transaction; shown as trimmed_unread.
CREATE TABLE inbox_trimmed (
    user_id BIGINT NOT NULL,
    unread  BIGINT NOT NULL,
    PRIMARY KEY (user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The items a feed source's latest fetched document carried (new, updated and unchanged), what
-- a new subscriber receives. Replaced when a fetched document carries a different set; at most
-- CurrentItems.MAX_PER_SOURCE rows per source (the newest).
CREATE TABLE source_current_items (
    source_id BIGINT NOT NULL,
    item_id   BIGINT NOT NULL,
    PRIMARY KEY (source_id, item_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
