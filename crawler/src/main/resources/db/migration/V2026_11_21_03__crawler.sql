-- Crawl state of every feed source (one row per source, keyed by it: the source is the sharding key).
-- next_fetch_at doubles as the lease: claiming a feed pushes it past the lease time, so another
-- node sees it as due again only if the claimer dies; the lease token fences the claimer's writes.
CREATE TABLE crawl_state (
    source_id          BIGINT        NOT NULL PRIMARY KEY,
    url                VARCHAR(2048) NOT NULL,
    status             VARCHAR(8)    NOT NULL DEFAULT 'ok',   -- ok | error | gone
    etag               VARCHAR(512)  NULL,
    last_modified      VARCHAR(128)  NULL,
    next_fetch_at      DATETIME(6)   NOT NULL,
    interval_s         INT           NOT NULL,
    consecutive_errors INT           NOT NULL DEFAULT 0,
    last_fetched_at    DATETIME(6)   NULL,
    last_http_status   INT           NULL,
    last_error         VARCHAR(1024) NULL,
    last_error_key     VARCHAR(32)   NULL,
    lease_token        BIGINT        NULL,
    lease_owner        VARCHAR(64)   NULL,
    fetch_count        BIGINT        NOT NULL DEFAULT 0,
    created_at         DATETIME(6)   NOT NULL,
    KEY crawl_due (next_fetch_at)
) ENGINE = InnoDB;

-- WebSub subscriptions to the hubs feeds name (one per source; the secret signs content
-- distribution). state: pending (asked, not yet verified) | verified | denied.
CREATE TABLE websub_subscriptions (
    source_id     BIGINT        NOT NULL PRIMARY KEY,
    hub_url       VARCHAR(2048) NOT NULL,
    topic_url     VARCHAR(2048) NOT NULL,
    secret        VARCHAR(64)   NOT NULL,
    state         VARCHAR(8)    NOT NULL,
    lease_until   DATETIME(6)   NULL,
    requested_at  DATETIME(6)   NOT NULL,
    last_error    VARCHAR(1024) NULL,
    deliveries    BIGINT        NOT NULL DEFAULT 0
) ENGINE = InnoDB;
