package dev.tributary.storage;

import static dev.tributary.storage.TestKinds.DOC;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
class IndexBackfillTest {

    @Autowired
    EntityStore store;

    @Autowired
    IndexBackfill backfill;

    @Autowired
    IndexRegistry registry;

    @Autowired
    IndexStates states;

    @Autowired
    IndexReader reader;

    @Autowired
    JdbcClient jdbc;

    /** Several keys per entity: one per distinct word of the text, under the doc's group. */
    private static IndexDefinition<TestKinds.Doc> wordsIndex(String name) {
        return IndexDefinition.of(name, "test_idx_" + name, DOC,
                List.of(IndexColumn.bigint("grp"), IndexColumn.varchar("word", 32)),
                doc -> Arrays.stream(doc.text().split(" ")).filter(w -> !w.isEmpty() && w.length() <= 32)
                        .distinct().map(w -> IndexKey.of(doc.group(), w)).toList());
    }

    @Test
    void backFillsOnlineWhileWritersInsertUpdateAndDelete() throws Exception {
        long group = TestKinds.unique();
        List<Long> existing = new ArrayList<>();
        for (Entity<TestKinds.Doc> doc : store.insertAll(DOC, docs(group, 200))) {
            existing.add(doc.id());
        }
        IndexDefinition<TestKinds.Doc> index = wordsIndex("docs_by_word_online");
        jdbc.sql(index.createTableSql()).update();
        // As at start-up: writers maintain the index from registration on; the back-fill does the past.
        registry.register(index);

        int writers = 3;
        int opsPerWriter = 60;
        CountDownLatch warmedUp = new CountDownLatch(writers);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                futures.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int op = 0; op < opsPerWriter; op++) {
                        long id = existing.get(random.nextInt(existing.size()));
                        switch (op % 4) {
                            case 0 -> store.insertAll(DOC, docs(group, 3));
                            case 1, 2 -> store.put(DOC, id, new TestKinds.Doc(group, "updated w" + random.nextInt(5) + " op" + op));
                            default -> store.delete(id);
                        }
                        if (op == 5) {
                            warmedUp.countDown();
                        }
                    }
                    return null;
                }));
            }
            assertThat(warmedUp.await(60, TimeUnit.SECONDS)).isTrue();
            IndexBackfill.Report report = backfill.run(index);
            for (Future<?> future : futures) {
                future.get(120, TimeUnit.SECONDS);
            }
            assertThat(report.alreadyReady()).isFalse();
            assertThat(report.entities()).isPositive();
        } finally {
            pool.shutdownNow();
        }

        assertThat(states.find(index.name()).orElseThrow().ready()).isTrue();
        assertThat(actualRows(index)).isEqualTo(expectedRows(index));
        assertThat(reader.lookup(index, IndexKey.of(group, "updated"))).allSatisfy(e -> assertThat(e.body().text()).startsWith("updated"));
        assertThat(backfill.run(index).alreadyReady()).isTrue();
    }

    @Test
    void aBackFillCutShortResumesFromItsCursor() {
        long group = TestKinds.unique();
        List<Entity<TestKinds.Doc>> docs = store.insertAll(DOC, docs(group, 10));
        IndexDefinition<TestKinds.Doc> index = wordsIndex("docs_by_word_resumed");
        jdbc.sql(index.createTableSql()).update();
        registry.register(index);
        states.register(index);
        // As if a previous run had done everything up to the fifth doc and then crashed.
        long fifth = addedId(docs.get(4).id());
        long highWater = addedId(docs.getLast().id());
        jdbc.sql("UPDATE entity_indexes SET backfill_cursor = ?, backfill_high_water = ? WHERE name = ?")
                .params(fifth, highWater, index.name()).update();

        IndexBackfill.Report report = backfill.run(index);

        assertThat(report.entities()).isEqualTo(5);
        for (int i = 0; i < docs.size(); i++) {
            long rows = jdbc.sql("SELECT COUNT(*) FROM " + index.table() + " WHERE entity_id = ?")
                    .param(docs.get(i).id()).query(Long.class).single();
            assertThat(rows).as("doc %d", i).isEqualTo(i < 5 ? 0 : 2);
        }
        assertThat(states.find(index.name()).orElseThrow().ready()).isTrue();
    }

    private static List<TestKinds.Doc> docs(long group, int count) {
        List<TestKinds.Doc> docs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            docs.add(new TestKinds.Doc(group, "doc" + i + " shared"));
        }
        return docs;
    }

    private long addedId(long id) {
        return jdbc.sql("SELECT added_id FROM entities WHERE id = ?").param(id).query(Long.class).single();
    }

    private Set<IndexTables.IndexRow> expectedRows(IndexDefinition<TestKinds.Doc> index) {
        Set<IndexTables.IndexRow> expected = new HashSet<>();
        List<Long> ids = jdbc.sql("SELECT id FROM entities WHERE kind = ?").param(DOC.name()).query(Long.class).list();
        for (Entity<TestKinds.Doc> doc : store.getAll(DOC, ids)) {
            for (StoredKey key : index.keysOf(doc.id(), doc.body())) {
                expected.add(new IndexTables.IndexRow(key, doc.id()));
            }
        }
        return expected;
    }

    private Set<IndexTables.IndexRow> actualRows(IndexDefinition<TestKinds.Doc> index) {
        return new HashSet<>(jdbc.sql("SELECT grp, word, entity_id FROM " + index.table())
                .query((rs, n) -> new IndexTables.IndexRow(new StoredKey(List.of(rs.getLong(1), rs.getString(2))), rs.getLong(3)))
                .list());
    }
}
