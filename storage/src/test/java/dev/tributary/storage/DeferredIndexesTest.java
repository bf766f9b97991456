package dev.tributary.storage;

import static dev.tributary.storage.TestKinds.DOC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.storage.testing.Await;
import dev.tributary.storage.testing.LockWaits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Deferred indexes against the embedded MariaDB: writers queue, drains write what was committed last. */
@WithEmbeddedStorage
class DeferredIndexesTest {

    /**
     * Ids above every issued one, from the top down; ids from 1 up are below every issued one (the
     * first millisecond of the ids' epoch). A backlog of them is the size of a real re-analysis
     * without its cost: a drain finds no body and writes no rows.
     */
    private static final long NO_ENTITY = Long.MAX_VALUE;

    private static final IndexDefinition<TestKinds.Doc> WORDS = IndexDefinition.of("docs_by_word_later", "test_idx_docs_by_word_later", DOC,
            List.of(IndexColumn.bigint("grp"), IndexColumn.varchar("word", 32)),
            doc -> Arrays.stream(doc.text().split(" ")).filter(w -> !w.isEmpty() && w.length() <= 32)
                    .distinct().map(w -> IndexKey.of(doc.group(), w)).toList()).deferred();

    @Autowired EntityStore store;
    @Autowired DeferredIndexes deferred;
    @Autowired IndexRegistry registry;
    @Autowired Transactions tx;
    @Autowired JdbcClient jdbc;

    @BeforeEach
    void index() {
        jdbc.sql(WORDS.createTableSql()).update();
        registry.register(WORDS);
    }

    @AfterEach
    void noBacklogLeftForOthers() {
        jdbc.sql("DELETE FROM index_pending WHERE index_name = 'docs_by_word_later' AND (entity_id <= 20000 OR entity_id > ?)")
                .param(NO_ENTITY - 1_000_000).update();
    }

    @Test
    void writersOnlyQueueAndADrainWritesTheCommittedBodies() {
        long group = TestKinds.unique();
        List<Long> ids = store.insertAll(DOC, List.of(new TestKinds.Doc(group, "red fox"), new TestKinds.Doc(group, "blue fox")))
                .stream().map(Entity::id).toList();

        assertThat(words(group)).as("nothing written in the writer's transaction").isEmpty();
        assertThat(pending(ids)).isEqualTo(2);

        deferred.drainAll();
        assertThat(words(group)).containsExactlyInAnyOrder("red", "fox", "blue", "fox");
        assertThat(pending(ids)).isZero();

        store.put(DOC, ids.getFirst(), new TestKinds.Doc(group, "green owl"));
        assertThat(words(group)).as("the old keys stand until the drain").contains("red");
        deferred.drainAll();
        assertThat(words(group)).containsExactlyInAnyOrder("green", "owl", "blue", "fox");

        store.delete(ids.get(1));
        deferred.drainAll();
        assertThat(words(group)).containsExactlyInAnyOrder("green", "owl");
        assertThat(pending(ids)).isZero();
    }

    @Test
    void aWriteDuringADrainIsIndexedByTheNextDrain() {
        long group = TestKinds.unique();
        long id = store.insert(DOC, new TestKinds.Doc(group, "first words")).id();
        CompletableFuture<Void> rewrite = new CompletableFuture<>();

        // A drain that has taken the entity's queue row and read its body, not yet committed.
        LockWaits lockWaits = LockWaits.seenBy(jdbc);
        tx.run("a drain held open", () -> {
            deferred.drain(WORDS);
            Thread.ofPlatform().start(() -> {
                try {
                    store.put(DOC, id, new TestKinds.Doc(group, "second words"));
                    rewrite.complete(null);
                } catch (Throwable e) {
                    rewrite.completeExceptionally(e);
                }
            });
            Await.until("the rewrite queues behind the drain, or is done", () -> rewrite.isDone() || lockWaits.holds());
        });
        rewrite.join();

        assertThat(pending(List.of(id))).as("queued again after the drain").isEqualTo(1);
        deferred.drainAll();
        assertThat(words(group)).containsExactlyInAnyOrder("second", "words");
    }

    @Test
    void aWrittenEntityIsIndexedByTheNextBatchHoweverLongTheBacklog() {
        long group = TestKinds.unique();
        long old = store.insert(DOC, new TestKinds.Doc(group, "old words")).id();
        deferred.drainAll();
        // A re-analysis queued as a migration does: the old entity, whose rows are no longer those its
        // body makes, and 20,000 older ones.
        jdbc.sql("INSERT INTO test_idx_docs_by_word_later (grp, word, entity_id) VALUES (?, 'stale', ?)").params(group, old).update();
        List<Long> older = LongStream.rangeClosed(1, 20_000).boxed().toList();
        queueAsMigration(older);
        queueAsMigration(List.of(old));

        long fresh = store.insert(DOC, new TestKinds.Doc(group, "fresh news")).id();
        int taken = deferred.drain(WORDS);

        assertThat(pending(List.of(fresh))).isZero();
        assertThat(taken).as("the rest of the batch from the backlog").isEqualTo(DeferredIndexes.BATCH);
        assertThat(backlog()).isEqualTo(20_001 - (DeferredIndexes.BATCH - 1));
        assertThat(words(group)).as("the new entity, and the backlog's newest, after one batch; exactly the rows of each body")
                .containsExactlyInAnyOrder("old", "words", "fresh", "news");
        assertThat(pending(older.subList(0, 20_000 - (DeferredIndexes.BATCH - 2)))).as("the oldest wait").isEqualTo(20_000 - (DeferredIndexes.BATCH - 2));

        deferred.drainAll();
        assertThat(backlog()).isZero();
    }

    @Test
    void aFloodOfWritesLeavesTheBacklogItsShare() {
        List<Long> written = LongStream.range(0, DeferredIndexes.BATCH + 10).mapToObj(i -> NO_ENTITY - i).toList();
        List<Long> backlog = LongStream.range(0, 100).mapToObj(i -> NO_ENTITY - 10_000 - i).toList();
        queueAsMigration(backlog);
        tx.run("writers", () -> deferred.queue(WORDS, written));

        assertThat(deferred.drain(WORDS)).isEqualTo(DeferredIndexes.BATCH + DeferredIndexes.BACKLOG_SHARE);
        assertThat(pending(written)).as("writers' rows first, all a batch holds").isEqualTo(10);
        assertThat(backlog()).isEqualTo(100 - DeferredIndexes.BACKLOG_SHARE);
        assertThat(pending(backlog.subList(0, DeferredIndexes.BACKLOG_SHARE))).as("newest first").isZero();
    }

    @Test
    void rewritingAnEntityInTheBacklogMovesItAhead() {
        long group = TestKinds.unique();
        long id = store.insert(DOC, new TestKinds.Doc(group, "first words")).id();
        deferred.drainAll();
        // Newer than it, so a backlog batch (newest first) would not reach it.
        queueAsMigration(LongStream.range(0, 2 * DeferredIndexes.BATCH).mapToObj(i -> NO_ENTITY - i).toList());
        queueAsMigration(List.of(id));

        store.put(DOC, id, new TestKinds.Doc(group, "second words"));
        deferred.drain(WORDS);

        assertThat(words(group)).containsExactlyInAnyOrder("second", "words");
        assertThat(backlog()).isEqualTo(2 * DeferredIndexes.BATCH - (DeferredIndexes.BATCH - 1));
    }

    @Test
    void aUniqueIndexCannotBeDeferred() {
        assertThatThrownBy(() -> IndexDefinition.unique("u_later", "test_idx_u_later", DOC, List.of(IndexColumn.bigint("grp")),
                doc -> List.of(IndexKey.of(doc.group()))).deferred()).isInstanceOf(IllegalArgumentException.class);
    }

    private List<String> words(long group) {
        return jdbc.sql("SELECT word FROM test_idx_docs_by_word_later WHERE grp = ?").param(group).query(String.class).list();
    }

    /** As V2026_11_29_03_00 queues every stored item: the column's default lane. */
    private void queueAsMigration(List<Long> ids) {
        for (int start = 0; start < ids.size(); start += 1000) {
            List<Long> chunk = ids.subList(start, Math.min(ids.size(), start + 1000));
            StringBuilder sql = new StringBuilder("INSERT IGNORE INTO index_pending (index_name, entity_id) VALUES ");
            List<Object> args = new ArrayList<>();
            for (long id : chunk) {
                sql.append(args.isEmpty() ? "('docs_by_word_later', ?)" : ", ('docs_by_word_later', ?)");
                args.add(id);
            }
            jdbc.sql(sql.toString()).params(args).update();
        }
    }

    private long backlog() {
        return jdbc.sql("SELECT COUNT(*) FROM index_pending WHERE index_name = 'docs_by_word_later' AND backlog")
                .query(Long.class).single();
    }

    private long pending(List<Long> ids) {
        return jdbc.sql("SELECT COUNT(*) FROM index_pending WHERE index_name = 'docs_by_word_later' AND entity_id IN (:ids)")
                .param("ids", ids).query(Long.class).single();
    }
}
