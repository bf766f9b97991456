-- Comments and likes: a separate system hanging off item ids, never fanned out. Append-only.
-- Sharded by item (the key every read carries); a comment is also found by its own id.
CREATE TABLE comments (
    item_id    BIGINT      NOT NULL,
    id         BIGINT      NOT NULL,
    user_id    BIGINT      NOT NULL,
    text       TEXT        NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (item_id, id),
    UNIQUE KEY comments_id (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE likes (
    item_id    BIGINT      NOT NULL,
    user_id    BIGINT      NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (item_id, user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Counts per item, moved in the same transaction as each comment or like, so a timeline page
-- reads 50 items' counts with one primary-key IN query instead of counting.
CREATE TABLE item_reactions (
    item_id  BIGINT NOT NULL,
    likes    INT    NOT NULL DEFAULT 0,
    comments INT    NOT NULL DEFAULT 0,
    PRIMARY KEY (item_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
