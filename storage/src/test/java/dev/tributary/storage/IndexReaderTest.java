package dev.tributary.storage;

import static dev.tributary.storage.TestKinds.NOTE;
import static dev.tributary.storage.TestKinds.NOTES_BY_SOURCE;
import static dev.tributary.storage.TestKinds.NOTES_BY_TAG;
import static dev.tributary.storage.TestKinds.NOTES_BY_URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

@WithEmbeddedStorage
class IndexReaderTest {

    @Autowired
    EntityStore store;

    @Autowired
    IndexReader reader;

    @Autowired
    IndexBackfill backfill;

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void indexesAreReady() {
        // The start-up back-fill may still be running; a direct run is idempotent.
        for (IndexDefinition<TestKinds.Note> index : List.of(NOTES_BY_SOURCE, NOTES_BY_TAG, NOTES_BY_URL)) {
            backfill.run(index);
        }
    }

    @Test
    void writesMaintainEveryIndexOfTheKind() {
        long source = TestKinds.unique();
        String tag = "tag" + source;
        Entity<TestKinds.Note> note = store.insert(NOTE, note(source, 10, List.of(tag, tag + "b"), "https://a/" + source));
        assertThat(tagRows(note.id())).containsExactlyInAnyOrder(tag, tag + "b");
        assertThat(reader.lookup(NOTES_BY_TAG, IndexKey.of(tag))).containsExactly(note);

        Entity<TestKinds.Note> updated = store.put(NOTE, note.id(), note(source, 11, List.of(tag + "c"), null));
        assertThat(tagRows(note.id())).containsExactly(tag + "c");
        assertThat(count("test_idx_notes_by_url", note.id())).isZero();
        assertThat(jdbc.sql("SELECT published FROM test_idx_notes_by_source WHERE entity_id = ?").param(note.id())
                .query(Long.class).list()).containsExactly(11L);
        assertThat(reader.lookup(NOTES_BY_TAG, IndexKey.of(tag))).isEmpty();
        assertThat(reader.lookup(NOTES_BY_TAG, IndexKey.of(tag + "c"))).containsExactly(updated);

        assertThat(store.delete(note.id())).isTrue();
        assertThat(tagRows(note.id())).isEmpty();
        assertThat(count("test_idx_notes_by_source", note.id())).isZero();
    }

    @Test
    void aStaleIndexRowNeverYieldsAWrongResult() {
        long source = TestKinds.unique();
        String tag = "stale" + source;
        Entity<TestKinds.Note> right = store.insert(NOTE, note(source, 1, List.of(tag), null));
        Entity<TestKinds.Note> wrong = store.insert(NOTE, note(source, 2, List.of("other" + source), null));
        Entity<TestKinds.Doc> otherKind = store.insert(TestKinds.DOC, new TestKinds.Doc(1, tag));
        long gone = TestKinds.unique();
        for (long entityId : List.of(wrong.id(), otherKind.id(), gone)) {
            jdbc.sql("INSERT INTO test_idx_notes_by_tag (tag, entity_id) VALUES (?, ?)").params(tag, entityId).update();
        }
        assertThat(reader.lookup(NOTES_BY_TAG, IndexKey.of(tag))).containsExactly(right);
        // The same holds for range queries: a row whose key the body no longer yields is dropped.
        jdbc.sql("INSERT INTO test_idx_notes_by_source (source_id, published, entity_id) VALUES (?, 99, ?)")
                .params(source, wrong.id()).update();
        assertThat(reader.range(NOTES_BY_SOURCE, IndexKey.of(source), null, null, 10, SortOrder.DESCENDING))
                .containsExactly(wrong, right);
    }

    @Test
    void lookupsAreExactNotCaseOrAccentInsensitive() {
        long source = TestKinds.unique();
        Entity<TestKinds.Note> lower = store.insert(NOTE, note(source, 1, List.of("café" + source), null));
        assertThat(reader.lookup(NOTES_BY_TAG, IndexKey.of("CAFÉ" + source))).isEmpty();
        assertThat(reader.lookup(NOTES_BY_TAG, IndexKey.of("cafe" + source))).isEmpty();
        assertThat(reader.lookup(NOTES_BY_TAG, IndexKey.of("café" + source))).containsExactly(lower);
    }

    @Test
    void aUniqueIndexHoldsOneEntityPerKey() {
        long source = TestKinds.unique();
        String url = "https://example.com/" + source + "/" + "very-long-path/".repeat(30);
        Entity<TestKinds.Note> first = store.insert(NOTE, note(source, 1, List.of(), url));
        assertThat(reader.lookupUnique(NOTES_BY_URL, IndexKey.of(url))).contains(first);
        assertThat(reader.lookupUnique(NOTES_BY_URL, IndexKey.of(url + "x"))).isEmpty();

        assertThatThrownBy(() -> store.insert(NOTE, note(source, 2, List.of("dup" + source), url)))
                .isInstanceOf(DuplicateIndexKeyException.class)
                .hasMessageContaining("test_notes_by_url");
        long other = TestKinds.unique();
        assertThatThrownBy(() -> store.put(NOTE, other, note(source, 3, List.of(), url)))
                .isInstanceOf(DuplicateIndexKeyException.class)
                .hasMessageContaining(String.valueOf(other));
        assertThat(store.find(NOTE, other)).as("rolled back").isEmpty();
        assertThat(reader.lookup(NOTES_BY_TAG, IndexKey.of("dup" + source))).isEmpty();
        // Re-putting the owner with the same URL is not a conflict with itself.
        assertThat(store.put(NOTE, first.id(), note(source, 4, List.of(), url)).body().published()).isEqualTo(4);
        assertThatThrownBy(() -> reader.lookupUnique(NOTES_BY_TAG, IndexKey.of("x")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rangePagesNewestFirstAndOldestFirst() {
        long source = TestKinds.unique();
        List<Entity<TestKinds.Note>> notes = new ArrayList<>();
        for (int published = 1; published <= 9; published++) {
            notes.add(store.insert(NOTE, note(source, published * 10L, List.of(), null)));
        }
        store.insert(NOTE, note(-source, 55, List.of(), null)); // another source (unique() never gives negatives)

        List<Entity<TestKinds.Note>> page1 = reader.range(NOTES_BY_SOURCE, IndexKey.of(source), null, null, 4, SortOrder.DESCENDING);
        assertThat(page1).extracting(e -> e.body().published()).containsExactly(90L, 80L, 70L, 60L);
        List<Entity<TestKinds.Note>> page2 = reader.range(NOTES_BY_SOURCE, IndexKey.of(source), null,
                page1.getLast().body().published(), 4, SortOrder.DESCENDING);
        assertThat(page2).extracting(e -> e.body().published()).containsExactly(50L, 40L, 30L, 20L);
        List<Entity<TestKinds.Note>> page3 = reader.range(NOTES_BY_SOURCE, IndexKey.of(source), null,
                page2.getLast().body().published(), 4, SortOrder.DESCENDING);
        assertThat(page3).extracting(e -> e.body().published()).containsExactly(10L);

        assertThat(reader.range(NOTES_BY_SOURCE, IndexKey.of(source), 20L, 60L, 10, SortOrder.ASCENDING))
                .extracting(e -> e.body().published()).containsExactly(30L, 40L, 50L);
        assertThat(reader.range(NOTES_BY_SOURCE, IndexKey.of(source), 90L, null, 10, SortOrder.ASCENDING)).isEmpty();
    }

    @Test
    void rangeMakesUpForStaleRowsWithinItsLimit() {
        long source = TestKinds.unique();
        List<Entity<TestKinds.Note>> notes = new ArrayList<>();
        for (int published = 1; published <= 5; published++) {
            notes.add(store.insert(NOTE, note(source, published, List.of(), null)));
        }
        // Two stale rows at the top of the range: bogus keys for real notes.
        jdbc.sql("INSERT INTO test_idx_notes_by_source (source_id, published, entity_id) VALUES (?, 100, ?), (?, 101, ?)")
                .params(source, notes.get(0).id(), source, notes.get(1).id()).update();
        assertThat(reader.range(NOTES_BY_SOURCE, IndexKey.of(source), null, null, 3, SortOrder.DESCENDING))
                .extracting(e -> e.body().published()).containsExactly(5L, 4L, 3L);
    }

    @Test
    void queriesCheckTheirArguments() {
        assertThatThrownBy(() -> reader.range(NOTES_BY_TAG, IndexKey.of(), null, null, 1, SortOrder.ASCENDING))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("BIGINT");
        assertThatThrownBy(() -> reader.range(NOTES_BY_SOURCE, IndexKey.of(1L, 2L), null, null, 1, SortOrder.ASCENDING))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> reader.range(NOTES_BY_SOURCE, IndexKey.of(1L), null, null, 0, SortOrder.ASCENDING))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> reader.lookup(NOTES_BY_SOURCE, IndexKey.of(1L)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anIndexNotYetBackFilledRefusesQueries() {
        var index = IndexDefinition.of("test_docs_not_ready", "test_idx_docs_not_ready", TestKinds.DOC,
                List.of(IndexColumn.bigint("grp")), doc -> List.of(IndexKey.of(doc.group())));
        jdbc.sql(index.createTableSql()).update();
        assertThatThrownBy(() -> reader.lookup(index, IndexKey.of(1L)))
                .isInstanceOf(IndexNotReadyException.class)
                .hasMessageContaining("test_docs_not_ready");
    }

    private static TestKinds.Note note(long source, long published, List<String> tags, String url) {
        return new TestKinds.Note("note " + published, source, published, tags, url, null);
    }

    private List<String> tagRows(long entityId) {
        return jdbc.sql("SELECT tag FROM test_idx_notes_by_tag WHERE entity_id = ?").param(entityId).query(String.class).list();
    }

    private long count(String table, long entityId) {
        return jdbc.sql("SELECT COUNT(*) FROM " + table + " WHERE entity_id = ?").param(entityId).query(Long.class).single();
    }
}
