-- Entries' full articles, fetched from their pages on a reader's demand (or ahead of readers for
-- sources someone marked "always fetch the full article") and kept for every reader of the item.
-- html is the sanitised article, at most tributary.articles.max-stored-size bytes; a failed fetch
-- keeps its reason (a RejectionReason name) and sentence instead, so readers asking within
-- tributary.articles.retry-after hear it without the page being fetched again. Rows go after
-- tributary.articles.keep (the retention job article-cache, by fetched_at).
CREATE TABLE item_articles (
    item_id     BIGINT        NOT NULL PRIMARY KEY,
    fetched_at  DATETIME(6)   NOT NULL,
    url         VARCHAR(2048) NOT NULL,
    title       VARCHAR(500)  NULL,
    html        MEDIUMTEXT    NULL,
    truncated   BOOLEAN       NOT NULL DEFAULT FALSE,
    failure     VARCHAR(32)   NULL,
    detail      VARCHAR(500)  NULL,
    KEY item_articles_fetched (fetched_at)
) ENGINE = InnoDB;
