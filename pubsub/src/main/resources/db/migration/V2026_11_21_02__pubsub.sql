-- Pub/sub: sources, items, subscriptions, fan-out tasks and inboxes. Append-only.
-- Sources, items and groups are entities (kinds source, item, group); the tables below are
-- their index tables and the narrow, hot tables that fan-out and timelines read.

-- Index tables of the entity store (IndexDefinition.createTableSql()).
CREATE TABLE source_urls (
    url_hash BINARY(16) NOT NULL,
    entity_id BIGINT NOT NULL,
    PRIMARY KEY (url_hash),
    KEY source_urls_entity (entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE source_owners (
    owner_kind VARCHAR(8) NOT NULL,
    owner_id BIGINT NOT NULL,
    entity_id BIGINT NOT NULL,
    PRIMARY KEY (owner_kind, owner_id),
    KEY source_owners_entity (entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE item_guids (
    source_id BIGINT NOT NULL,
    guid_hash BINARY(16) NOT NULL,
    entity_id BIGINT NOT NULL,
    PRIMARY KEY (source_id, guid_hash),
    KEY item_guids_entity (entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- A source's live items, newest last; tombstoned items leave it. Profile and source feeds page it.
CREATE TABLE item_sources (
    source_id BIGINT NOT NULL,
    item_id BIGINT NOT NULL,
    entity_id BIGINT NOT NULL,
    PRIMARY KEY (source_id, item_id, entity_id),
    KEY item_sources_entity (entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Subscriptions in both directions, written together. media_mask: bit per media type
-- (text 1, link 2, image 4, video 8, audio 16); 31 = everything.
-- A person's subscriptions (sharded by user).
CREATE TABLE subscriptions (
    user_id    BIGINT      NOT NULL,
    source_id  BIGINT      NOT NULL,
    id         BIGINT      NOT NULL,
    media_mask TINYINT     NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (user_id, source_id),
    UNIQUE KEY subscriptions_id (user_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- A source's subscribers (sharded by source), paged by user_id during fan-out.
CREATE TABLE subscribers (
    source_id  BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    media_mask TINYINT NOT NULL,
    PRIMARY KEY (source_id, user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- External feeds attached to a person's profile: items of source_id also reach the
-- subscribers of relay_source_id (the person's own source).
CREATE TABLE source_relays (
    source_id       BIGINT NOT NULL,
    relay_source_id BIGINT NOT NULL,
    PRIMARY KEY (source_id, relay_source_id),
    KEY source_relays_relay (relay_source_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE group_members (
    group_id   BIGINT      NOT NULL,
    user_id    BIGINT      NOT NULL,
    created_at DATETIME(6) NOT NULL,
    PRIMARY KEY (group_id, user_id),
    KEY group_members_user (user_id, group_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Durable fan-out work, written in the publishing transaction. kind: deliver (an item to the
-- subscribers of audience_source_id) or retract (a tombstoned item out of every inbox).
-- cursor_user: last subscriber done, committed with each batch (with its Redis counters);
-- end_user: last subscriber of this task's range (a large audience is split into ranges that
-- workers on every node share).
-- lease_token fences a worker whose lease expired: its batch commits only while it holds it;
-- NULL when the task is free (new, or handed back cleanly), so a claim that finds a token
-- knows it takes over from a worker that died.
CREATE TABLE fanout_tasks (
    id                 BIGINT      NOT NULL,
    kind               VARCHAR(8)  NOT NULL,
    item_id            BIGINT      NOT NULL,
    source_id          BIGINT      NOT NULL,
    audience_source_id BIGINT      NOT NULL,
    media              TINYINT     NOT NULL,
    cursor_user        BIGINT      NOT NULL DEFAULT 0,
    end_user           BIGINT      NOT NULL DEFAULT 9223372036854775807,
    lease_token        BIGINT      NULL,
    lease_owner        VARCHAR(64) NULL,
    lease_until        DATETIME(6) NOT NULL,
    attempts           INT         NOT NULL DEFAULT 0,
    created_at         DATETIME(6) NOT NULL,
    PRIMARY KEY (id),
    KEY fanout_tasks_due (lease_until),
    KEY fanout_tasks_item (item_id),
    CONSTRAINT fanout_tasks_kind CHECK (kind IN ('deliver', 'retract'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Home inboxes: one narrow row per delivered item, newest = highest item_id (item ids are
-- time-ordered), so an item lands in an inbox at most once by the primary key.
-- inbox_item serves retraction of a tombstoned item from every inbox.
CREATE TABLE inbox (
    user_id   BIGINT  NOT NULL,
    item_id   BIGINT  NOT NULL,
    source_id BIGINT  NOT NULL,
    media     TINYINT NOT NULL,
    is_read   BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (user_id, item_id),
    KEY inbox_item (item_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
