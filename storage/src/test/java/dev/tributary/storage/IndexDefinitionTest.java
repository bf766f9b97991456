package dev.tributary.storage;

import static dev.tributary.storage.IndexColumn.bigint;
import static dev.tributary.storage.IndexColumn.hash;
import static dev.tributary.storage.IndexColumn.varchar;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class IndexDefinitionTest {

    @Test
    void rendersTheTableOfANonUniqueIndex() {
        assertThat(TestKinds.NOTES_BY_SOURCE.createTableSql()).isEqualTo("""
                CREATE TABLE IF NOT EXISTS test_idx_notes_by_source (
                    source_id BIGINT NOT NULL,
                    published BIGINT NOT NULL,
                    entity_id BIGINT NOT NULL,
                    PRIMARY KEY (source_id, published, entity_id),
                    KEY test_idx_notes_by_source_entity (entity_id)
                ) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin""");
    }

    @Test
    void aUniqueIndexKeysOnItsColumnsAlone() {
        assertThat(TestKinds.NOTES_BY_URL.createTableSql())
                .contains("url_hash BINARY(16) NOT NULL")
                .contains("PRIMARY KEY (url_hash)")
                .contains("KEY test_idx_notes_by_url_entity (entity_id)");
        assertThat(TestKinds.NOTES_BY_TAG.createTableSql())
                .contains("tag VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL");
    }

    @Test
    void namesThatCouldInjectSqlAreRefused() {
        assertThatThrownBy(() -> IndexDefinition.of("x; DROP TABLE entities", "t", TestKinds.DOC,
                List.of(bigint("a")), d -> List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> bigint("A`b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> bigint("entity_id")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new EntityKind<>("Bad Kind", String.class)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keysTooLongForInnoDbAreRefusedUpFront() {
        assertThatThrownBy(() -> IndexDefinition.of("wide", "wide", TestKinds.DOC,
                List.of(varchar("a", 255), varchar("b", 255), varchar("c", 255), varchar("d", 255)), d -> List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HASH");
        assertThatThrownBy(() -> varchar("a", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IndexDefinition.of("dup", "dup", TestKinds.DOC,
                List.of(bigint("a"), bigint("a")), d -> List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keysAreValidatedDeduplicatedAndHashed() {
        var note = new TestKinds.Note("t", 1, 2, List.of("a", "b", "a"), "https://x", null);
        assertThat(TestKinds.NOTES_BY_TAG.keysOf(10, note)).extracting(k -> k.values().getFirst()).containsExactly("a", "b");
        StoredKey url = TestKinds.NOTES_BY_URL.keysOf(10, note).iterator().next();
        assertThat(url.values().getFirst()).isInstanceOf(StoredKey.Hash16.class);
        assertThat(url.sqlValues().getFirst()).isInstanceOf(byte[].class).satisfies(b -> assertThat((byte[]) b).hasSize(16));
        assertThat(url).isEqualTo(TestKinds.NOTES_BY_URL.store(IndexKey.of("https://x"), 0));

        var longTag = new TestKinds.Note("t", 1, 2, List.of("x".repeat(65)), null, null);
        assertThatThrownBy(() -> TestKinds.NOTES_BY_TAG.keysOf(11, longTag))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("entity 11");
        assertThatThrownBy(() -> TestKinds.NOTES_BY_SOURCE.store(IndexKey.of("not a number", 1L), 12))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IndexKey.of(1L, null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(IndexKey.of(5)).isEqualTo(IndexKey.of(5L));
    }
}
