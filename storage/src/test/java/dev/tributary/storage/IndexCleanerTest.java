package dev.tributary.storage;

import static dev.tributary.storage.TestKinds.NOTE;
import static dev.tributary.storage.TestKinds.NOTES_BY_SOURCE;
import static dev.tributary.storage.TestKinds.NOTES_BY_TAG;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

@WithEmbeddedStorage
class IndexCleanerTest {

    @Autowired
    EntityStore store;

    @Autowired
    IndexCleaner cleaner;

    @Autowired
    IndexBackfill backfill;

    @Autowired
    JdbcClient jdbc;

    @Test
    void repairsMissingStaleAndOrphanRowsWhileWritersWrite() throws Exception {
        backfill.run(NOTES_BY_TAG);
        backfill.run(NOTES_BY_SOURCE);
        long source = TestKinds.unique();
        List<Entity<TestKinds.Note>> damaged = store.insertAll(NOTE, notes(source, "d", 10));
        List<Entity<TestKinds.Note>> busy = store.insertAll(NOTE, notes(source, "b", 20));

        for (Entity<TestKinds.Note> note : damaged.subList(0, 4)) { // missing rows
            jdbc.sql("DELETE FROM test_idx_notes_by_tag WHERE entity_id = ?").param(note.id()).update();
        }
        for (Entity<TestKinds.Note> note : damaged.subList(4, 8)) { // stale rows beside the right ones
            jdbc.sql("INSERT INTO test_idx_notes_by_tag (tag, entity_id) VALUES (?, ?)").params("bogus" + source, note.id()).update();
        }
        for (Entity<TestKinds.Note> note : damaged.subList(8, 10)) { // a wrong key: one stale, one missing
            jdbc.sql("UPDATE test_idx_notes_by_source SET published = published + 1000 WHERE entity_id = ?").param(note.id()).update();
        }
        long goneId = TestKinds.unique();
        Entity<TestKinds.Doc> doc = store.insert(TestKinds.DOC, new TestKinds.Doc(1, "not a note"));
        jdbc.sql("INSERT INTO test_idx_notes_by_tag (tag, entity_id) VALUES (?, ?), (?, ?)")
                .params("orphan" + source, goneId, "orphan" + source, doc.id()).update();

        // Writers touch only the "busy" notes, so the damage above is the cleaner's alone to repair.
        int writers = 2;
        CountDownLatch started = new CountDownLatch(writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        IndexCleaner.Report report;
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                futures.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int op = 0; op < 80; op++) {
                        Entity<TestKinds.Note> note = busy.get(random.nextInt(busy.size()));
                        if (op % 5 == 0) {
                            store.insertAll(NOTE, notes(source, "n" + op, 2));
                        } else {
                            store.put(NOTE, note.id(), new TestKinds.Note("v" + op, source, op,
                                    List.of("t" + random.nextInt(4) + "-" + source), null, null));
                        }
                        if (op == 3) {
                            started.countDown();
                        }
                    }
                    return null;
                }));
            }
            assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
            report = cleaner.clean();
            for (Future<?> future : futures) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(report.checked()).isGreaterThanOrEqualTo(30);
        assertThat(report.inserted()).isGreaterThanOrEqualTo(4 + 2);
        assertThat(report.deleted()).isGreaterThanOrEqualTo(4 + 2);
        assertThat(report.orphansDeleted()).isGreaterThanOrEqualTo(2);
        for (Entity<TestKinds.Note> note : damaged) {
            assertThat(tags(note.id())).as("tags of %d", note.id()).containsExactlyInAnyOrderElementsOf(note.body().tags());
            assertThat(jdbc.sql("SELECT published FROM test_idx_notes_by_source WHERE entity_id = ?").param(note.id())
                    .query(Long.class).list()).containsExactly(note.body().published());
        }
        assertThat(jdbc.sql("SELECT COUNT(*) FROM test_idx_notes_by_tag WHERE tag = ?").param("orphan" + source)
                .query(Long.class).single()).isZero();

        // With the writers done, a second pass finds nothing: the writers and the cleaner left every index exact.
        IndexCleaner.Report second = cleaner.clean();
        assertThat(second.inserted()).isZero();
        assertThat(second.deleted()).isZero();
        assertThat(second.orphansDeleted()).isZero();
    }

    private static List<TestKinds.Note> notes(long source, String prefix, int count) {
        List<TestKinds.Note> notes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            notes.add(new TestKinds.Note(prefix + i, source, i, List.of(prefix + i + "-" + source, "all-" + source), null, null));
        }
        return notes;
    }

    private List<String> tags(long entityId) {
        return jdbc.sql("SELECT tag FROM test_idx_notes_by_tag WHERE entity_id = ?").param(entityId).query(String.class).list();
    }
}
