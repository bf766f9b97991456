package dev.tributary.storage;

import static dev.tributary.storage.TestKinds.DOC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.storage.testing.Await;
import dev.tributary.storage.testing.LockWaits;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Deferred indexes against the embedded MariaDB: writers queue, drains write what was committed last. */
@WithEmbeddedStorage
class DeferredIndexesTest {

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
    void aUniqueIndexCannotBeDeferred() {
        assertThatThrownBy(() -> IndexDefinition.unique("u_later", "test_idx_u_later", DOC, List.of(IndexColumn.bigint("grp")),
                doc -> List.of(IndexKey.of(doc.group()))).deferred()).isInstanceOf(IllegalArgumentException.class);
    }

    private List<String> words(long group) {
        return jdbc.sql("SELECT word FROM test_idx_docs_by_word_later WHERE grp = ?").param(group).query(String.class).list();
    }

    private long pending(List<Long> ids) {
        return jdbc.sql("SELECT COUNT(*) FROM index_pending WHERE index_name = 'docs_by_word_later' AND entity_id IN (:ids)")
                .param("ids", ids).query(Long.class).single();
    }
}
