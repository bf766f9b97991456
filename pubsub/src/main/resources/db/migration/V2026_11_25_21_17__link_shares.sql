-- Issue 19, "N people shared this". Append-only.
-- A person's post that carries a link: one row per post, its story the link's (pubsub.Stories,
-- as a feed item's), written and removed with the post in the publishing and tombstoning
-- transactions. Group posts have none (a group's items are its members' only). Found by story
-- (newest post first) for a page of items, and by item when the post is tombstoned.
CREATE TABLE link_shares (
    story     BIGINT NOT NULL,
    item_id   BIGINT NOT NULL,
    user_id   BIGINT NOT NULL,
    source_id BIGINT NOT NULL,
    PRIMARY KEY (item_id),
    KEY link_shares_story (story, source_id, user_id, item_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
