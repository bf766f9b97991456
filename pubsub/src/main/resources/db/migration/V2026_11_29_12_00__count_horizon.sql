-- Issue 51: the count horizon W, one row. A person's unread counters in Redis count their entries
-- at or below their own horizon (never above W); reads count the entries above it from the inbox.
-- A fan-out batch reads W with a shared lock in its transaction and moves no counter for an item
-- above it; raising W takes the row's exclusive lock, so it waits until every batch that read the
-- old W has committed (docs/architecture.md, "Unread counters").
CREATE TABLE count_horizon (
    id      TINYINT NOT NULL PRIMARY KEY,
    item_id BIGINT  NOT NULL,
    CONSTRAINT count_horizon_one CHECK (id = 1)
) ENGINE = InnoDB;

INSERT INTO count_horizon (id, item_id) VALUES (1, 0);
