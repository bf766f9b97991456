-- Tributary as a WebSub hub for its own exports (issue 50). A topic is one export of one person
-- (topic_key "user:<id>:atom", "home:<id>:rss", ...); owner_id is that person. topic_url is the url
-- the subscriber named; a home feed's carries its token, so it is kept sealed with the deployment's key
-- (api.hub.SealedColumns) and never logged nor used as a metric label.

-- Subscription requests whose intent is being verified; they count toward the caps meanwhile.
CREATE TABLE websub_hub_intents (
    id             BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    mode           VARCHAR(12)   NOT NULL,
    topic_key      VARCHAR(64)   NOT NULL,
    topic_url      VARCHAR(2048) NOT NULL,
    callback       VARCHAR(2048) NOT NULL,
    callback_host  VARCHAR(255)  NOT NULL,
    owner_id       BIGINT        NOT NULL,
    secret         VARCHAR(400)  NULL,  -- hub.secret (< 200 bytes), sealed: api.hub.SealedColumns
    lease_seconds  INT           NOT NULL,
    created_at     DATETIME(6)   NOT NULL,
    KEY hub_intents_owner (owner_id),
    KEY hub_intents_host (callback_host),
    KEY hub_intents_age (created_at)
) ENGINE = InnoDB;

-- Verified subscriptions, and their delivery queue: pending = 1 when the topic changed since the
-- last content delivered (version counts changes, so a delivery clears only the change it sent).
-- The queue is bounded by the subscriptions themselves: one row each, however many changes.
CREATE TABLE websub_hub_subscriptions (
    id               BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    topic_key        VARCHAR(64)   NOT NULL,
    topic_url        VARCHAR(2048) NOT NULL,
    callback         VARCHAR(2048) NOT NULL,
    callback_hash    BINARY(32)    NOT NULL,
    callback_host    VARCHAR(255)  NOT NULL,
    owner_id         BIGINT        NOT NULL,
    secret           VARCHAR(400)  NULL,  -- sealed, as above
    lease_until      DATETIME(6)   NOT NULL,
    pending          TINYINT       NOT NULL DEFAULT 0,
    version          INT           NOT NULL DEFAULT 0,
    attempts         INT           NOT NULL DEFAULT 0,
    next_attempt_at  DATETIME(6)   NULL,
    claimed_until    DATETIME(6)   NULL,
    delivered_at     DATETIME(6)   NULL,
    last_error       VARCHAR(255)  NULL,
    created_at       DATETIME(6)   NOT NULL,
    UNIQUE KEY hub_subscription (topic_key, callback_hash),
    KEY hub_subscriptions_owner (owner_id),
    KEY hub_subscriptions_host (callback_host),
    KEY hub_subscriptions_due (pending, next_attempt_at),
    KEY hub_subscriptions_lease (lease_until)
) ENGINE = InnoDB;

-- The topics with subscribers: the ETag of the content last seen, so a change is noticed once
-- (compare-and-set: of two nodes noticing the same change, one marks the deliveries).
CREATE TABLE websub_hub_topics (
    topic_key   VARCHAR(64)   NOT NULL PRIMARY KEY,
    topic_url   VARCHAR(2048) NOT NULL,
    owner_id    BIGINT        NOT NULL,
    etag        VARCHAR(64)   NULL,
    checked_at  DATETIME(6)   NOT NULL,
    KEY hub_topics_owner (owner_id),
    KEY hub_topics_checked (checked_at)
) ENGINE = InnoDB;
