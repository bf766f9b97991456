-- Schemaless entity store (FriendFeed style). Append-only: never edit a released migration.

-- added_id is the clustered key so that inserts append to the end of the B-tree (ids from
-- many nodes interleave); id is the public, time-ordered 64-bit id every other table uses.
-- (kind, added_id) lets the index back-fill walk one kind in insertion order.
CREATE TABLE entities (
    added_id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    id       BIGINT          NOT NULL,
    kind     VARCHAR(32)     NOT NULL,
    updated  DATETIME(6)     NOT NULL,
    body     MEDIUMBLOB      NOT NULL,
    PRIMARY KEY (added_id),
    UNIQUE KEY entities_id (id),
    KEY entities_kind_added (kind, added_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- One row per index table. An index is queryable only once ready; while backfilling, writers
-- already maintain it and the back-fill walks older entities up to backfill_high_water,
-- recording backfill_cursor (an added_id) after every batch so a crash resumes there.
-- definition is the rendered column list: a changed definition under an old name fails start-up.
CREATE TABLE entity_indexes (
    name                VARCHAR(64)     NOT NULL,
    kind                VARCHAR(32)     NOT NULL,
    table_name          VARCHAR(64)     NOT NULL,
    definition          VARCHAR(1024)   NOT NULL,
    state               VARCHAR(16)     NOT NULL,
    backfill_cursor     BIGINT UNSIGNED NOT NULL DEFAULT 0,
    backfill_high_water BIGINT UNSIGNED NULL,
    created_at          DATETIME(6)     NOT NULL,
    updated_at          DATETIME(6)     NOT NULL,
    ready_at            DATETIME(6)     NULL,
    PRIMARY KEY (name),
    CONSTRAINT entity_indexes_state CHECK (state IN ('backfilling', 'ready'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Leases on the 1024 id-generator node ids (10 bits). Every slot exists up front so claiming
-- is "lock one expired row with SKIP LOCKED and take it", never an insert race.
-- expires_at is in UTC (written with UTC_TIMESTAMP) so nodes in other time zones agree.
CREATE TABLE id_nodes (
    node_id    SMALLINT UNSIGNED NOT NULL,
    owner      VARCHAR(128)      NULL,
    expires_at DATETIME(6)       NOT NULL,
    PRIMARY KEY (node_id),
    KEY id_nodes_expires (expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- 0..1023 as a product of digit tables: portable to MySQL 8.4 and MariaDB 11.4 alike.
INSERT INTO id_nodes (node_id, owner, expires_at)
SELECT a.d + 4 * b.d + 64 * c.d, NULL, '1970-01-01 00:00:00'
FROM (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) a
CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3
            UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7
            UNION ALL SELECT 8 UNION ALL SELECT 9 UNION ALL SELECT 10 UNION ALL SELECT 11
            UNION ALL SELECT 12 UNION ALL SELECT 13 UNION ALL SELECT 14 UNION ALL SELECT 15) b
CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3
            UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7
            UNION ALL SELECT 8 UNION ALL SELECT 9 UNION ALL SELECT 10 UNION ALL SELECT 11
            UNION ALL SELECT 12 UNION ALL SELECT 13 UNION ALL SELECT 14 UNION ALL SELECT 15) c;
