-- "Always fetch the full article": a person's wish for their subscription to a feed that ships
-- only teasers. The crawler fetches each new item's article once, ahead of readers, while at
-- least one person who wished it still subscribes. Keyed by source for the crawler's check at
-- ingest, and by person for listing their subscriptions.
CREATE TABLE article_readers (
    source_id  BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    PRIMARY KEY (source_id, user_id),
    KEY article_readers_user (user_id, source_id)
) ENGINE = InnoDB;
