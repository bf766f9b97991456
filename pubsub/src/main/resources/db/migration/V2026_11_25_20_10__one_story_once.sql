-- Issue 19, one story once. Append-only.
-- A feed item's story (a 64-bit hash of its canonical link, Item.story): a person's inbox holds
-- a story once. NULL for posts of people and groups (and items stored before this), which never
-- collide: a unique key admits any number of NULLs, so their delivery is what it was.
ALTER TABLE inbox ADD COLUMN story BIGINT NULL, ADD UNIQUE KEY inbox_story (user_id, story);

-- The other copies of a story a person holds: item_id reached them after lead_item_id (their
-- inbox entry) and counts nowhere. Keyed by person first, like the inbox; found by lead (to list
-- also_in, to promote one when the lead is retracted) and by item (its own retraction).
CREATE TABLE inbox_also (
    user_id      BIGINT NOT NULL,
    item_id      BIGINT NOT NULL,
    lead_item_id BIGINT NOT NULL,
    source_id    BIGINT NOT NULL,
    media        TINYINT NOT NULL,
    PRIMARY KEY (user_id, item_id),
    KEY inbox_also_lead (user_id, lead_item_id),
    KEY inbox_also_item (item_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
