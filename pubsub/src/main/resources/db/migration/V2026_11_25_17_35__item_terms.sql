-- Search: the item_terms index (PubsubKinds.ITEM_TERMS), one row per distinct term of a live item.
-- Terms are normalised words and CJK bigrams (SearchTerms), so the same table serves MySQL and
-- MariaDB alike (MariaDB's FULLTEXT has no CJK parser). Declared like every storage index: writers
-- keep it in the item's transaction, and IndexBackfill indexes the items stored before it.
CREATE TABLE item_terms (
    term VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    item_id BIGINT NOT NULL,
    source_id BIGINT NOT NULL,
    weight BIGINT NOT NULL,
    entity_id BIGINT NOT NULL,
    PRIMARY KEY (term, item_id, source_id, weight, entity_id),
    KEY item_terms_entity (entity_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
