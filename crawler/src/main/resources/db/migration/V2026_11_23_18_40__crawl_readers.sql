-- A crawl that serves readers. idle_since: when a claim found the feed without a reader (no
-- subscriber, no profile attaching it); NULL while it has one. An idle feed is not fetched; one
-- idle for tributary.crawler.retire-after is retired (status 'retired') until someone follows it.
-- crawl_due_new: claims take never-fetched feeds in a bounded share of their slots, so a large
-- import cannot push every other feed back.
ALTER TABLE crawl_state
    ADD COLUMN idle_since DATETIME(6) NULL,
    ADD KEY crawl_due_new (fetch_count, next_fetch_at);
