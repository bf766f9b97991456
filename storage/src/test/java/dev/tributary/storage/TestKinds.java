package dev.tributary.storage;

import static dev.tributary.storage.IndexColumn.bigint;
import static dev.tributary.storage.IndexColumn.hash;
import static dev.tributary.storage.IndexColumn.varchar;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Kinds and indexes of the storage tests. Deliberately not a @Configuration: it is listed in
 * {@link WithEmbeddedStorage}, so the component scan of other modules' tests never sees it.
 */
class TestKinds {

    record Note(String title, long sourceId, long published, List<String> tags, String url, Instant at) {
        Note withTitle(String newTitle) {
            return new Note(newTitle, sourceId, published, tags, url, at);
        }
    }

    record Doc(long group, String text) {}

    static final EntityKind<Note> NOTE = new EntityKind<>("test_note", Note.class);
    static final EntityKind<Doc> DOC = new EntityKind<>("test_doc", Doc.class);

    static final IndexDefinition<Note> NOTES_BY_SOURCE = IndexDefinition.of("test_notes_by_source",
            "test_idx_notes_by_source", NOTE, List.of(bigint("source_id"), bigint("published")),
            note -> List.of(IndexKey.of(note.sourceId(), note.published())));
    static final IndexDefinition<Note> NOTES_BY_TAG = IndexDefinition.of("test_notes_by_tag",
            "test_idx_notes_by_tag", NOTE, List.of(varchar("tag", 64)),
            note -> note.tags().stream().map(IndexKey::of).toList());
    static final IndexDefinition<Note> NOTES_BY_URL = IndexDefinition.unique("test_notes_by_url",
            "test_idx_notes_by_url", NOTE, List.of(hash("url_hash")),
            note -> note.url() == null ? List.of() : List.of(IndexKey.of(note.url())));

    /** Values no other test (or earlier run against the same database) uses. */
    private static final AtomicLong UNIQUE = new AtomicLong(System.nanoTime() & 0xFFFF_FFFFL);

    static long unique() {
        return UNIQUE.incrementAndGet();
    }

    @Bean
    EntityKind<Note> testNoteKind() {
        return NOTE;
    }

    @Bean
    EntityKind<Doc> testDocKind() {
        return DOC;
    }

    @Bean
    IndexDefinition<Note> testNotesBySource() {
        return NOTES_BY_SOURCE;
    }

    @Bean
    IndexDefinition<Note> testNotesByTag() {
        return NOTES_BY_TAG;
    }

    @Bean
    IndexDefinition<Note> testNotesByUrl() {
        return NOTES_BY_URL;
    }

    /** Marks that the test index tables exist; creating them stands in for a module's Flyway migration. */
    record IndexTablesCreated() {}

    @Bean
    IndexTablesCreated testIndexTables(JdbcTemplate jdbc) {
        for (IndexDefinition<?> index : List.of(NOTES_BY_SOURCE, NOTES_BY_TAG, NOTES_BY_URL)) {
            jdbc.execute(index.createTableSql());
        }
        return new IndexTablesCreated();
    }
}
