-- Issue 18 part 2, hybrid push/pull. Append-only.
-- One row per followed source: its subscriber count (kept in the subscribe and unsubscribe
-- transactions) and its mode. Publish locks the row, so an item is pushed or pulled as the mode
-- was when it was stored; ever_pulled stays TRUE once set (its pulled items are read until they
-- leave the horizon, whatever the mode is now).
CREATE TABLE source_audiences (
    source_id   BIGINT  NOT NULL,
    subscribers INT     NOT NULL,
    pulled      BOOLEAN NOT NULL DEFAULT FALSE,
    ever_pulled BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (source_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

INSERT INTO source_audiences (source_id, subscribers) SELECT source_id, COUNT(*) FROM subscribers GROUP BY source_id;

-- Items stored while their source was pulled: read at timeline time by its followers instead
-- of fanned out to them. A tombstone deletes the row in its transaction.
CREATE TABLE pulled_items (
    source_id BIGINT  NOT NULL,
    item_id   BIGINT  NOT NULL,
    media     TINYINT NOT NULL,
    PRIMARY KEY (source_id, item_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- A person's read state of a pulled source: items below from_id are not theirs (published
-- before they followed, beyond the back-fill); items up to read_upto are read. No row: from 0, up to 0.
CREATE TABLE pulled_reads (
    user_id   BIGINT NOT NULL,
    source_id BIGINT NOT NULL,
    from_id   BIGINT NOT NULL,
    read_upto BIGINT NOT NULL,
    PRIMARY KEY (user_id, source_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Exceptions to read_upto: a pulled item read one by one above it (TRUE) or unread again at or
-- below it (FALSE). A row exists only where the state differs from what read_upto says.
CREATE TABLE pulled_marks (
    user_id   BIGINT  NOT NULL,
    source_id BIGINT  NOT NULL,
    item_id   BIGINT  NOT NULL,
    is_read   BOOLEAN NOT NULL,
    PRIMARY KEY (user_id, source_id, item_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
