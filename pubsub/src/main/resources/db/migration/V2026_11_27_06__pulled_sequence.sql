-- Issue 18/20: unread counts of pulled sources that do not re-read every item of the horizon.
-- Append-only.
-- Each pulled item gets its source's next sequence number as it is stored (publish holds the
-- source's source_audiences row, so numbers are handed out in commit order): a count read at
-- sequence N is brought up to date by reading only the items numbered above N. Items stored
-- before this migration keep 0 and are never "above" anything.
ALTER TABLE pulled_items ADD COLUMN seq BIGINT NOT NULL DEFAULT 0, ADD KEY by_seq (source_id, seq, media);
ALTER TABLE source_audiences ADD COLUMN pulled_seq BIGINT NOT NULL DEFAULT 0;

-- How many pulled items of each source a tombstone has removed: a count read before a removal
-- is read afresh instead of brought up to date. Its own row, not source_audiences', so a
-- tombstone (which holds the item's row first) never waits for a publish holding the source's.
CREATE TABLE pulled_removals (
    source_id BIGINT NOT NULL,
    removed   BIGINT NOT NULL,
    PRIMARY KEY (source_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
