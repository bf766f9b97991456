-- Issue 45, distinct posts that share a link are never merged. Append-only.
-- The item_stories index (PubsubKinds.ITEM_STORIES): the stories a feed's items hold. A new entry
-- of a feed never takes a story another of its entries holds (pubsub.Stories), and search shows
-- a story once. Declared like every storage index: writers keep it in the item's transaction, and
-- IndexBackfill indexes the items stored before it.
CREATE TABLE item_stories (
    source_id BIGINT NOT NULL,
    story BIGINT NOT NULL,
    entity_id BIGINT NOT NULL,
    PRIMARY KEY (source_id, story, entity_id),
    KEY item_stories_entity (entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
