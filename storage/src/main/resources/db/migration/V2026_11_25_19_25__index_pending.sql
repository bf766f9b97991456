-- Entities whose rows in a deferred index (IndexDefinition.deferred) are still to be written:
-- queued by the entity's writer in its own transaction, drained in batches by DeferredIndexes.
CREATE TABLE index_pending (
    index_name VARCHAR(64) NOT NULL,
    entity_id  BIGINT      NOT NULL,
    PRIMARY KEY (index_name, entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
