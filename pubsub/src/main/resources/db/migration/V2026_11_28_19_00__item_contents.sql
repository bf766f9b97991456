-- Issue 47, the feed's own full content. One row per live feed item that has content, written in
-- the publishing transaction and replaced when the entry's content changes, deleted with the
-- item's tombstone. Kept apart from the item entity so that timelines, which read items by the
-- page and cache them, never carry up to 512 KB of HTML each. body is the zlib-deflated UTF-8
-- HTML; digest (SHA-256 of html and truncated) says whether a republished entry changed it.
CREATE TABLE item_contents (
    item_id    BIGINT        NOT NULL,
    body       MEDIUMBLOB    NOT NULL,
    truncated  BOOLEAN       NOT NULL,
    digest     BINARY(32)    NOT NULL,
    PRIMARY KEY (item_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
