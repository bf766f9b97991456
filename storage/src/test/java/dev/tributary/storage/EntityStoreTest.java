package dev.tributary.storage;

import static dev.tributary.storage.TestKinds.DOC;
import static dev.tributary.storage.TestKinds.NOTE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

@WithEmbeddedStorage
class EntityStoreTest {

    @Autowired
    EntityStore store;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    StorageSettings settings;

    @Test
    void putThenGetReturnsWhatWasStored() {
        long id = TestKinds.unique();
        var body = new TestKinds.Doc(1, "first");
        Entity<TestKinds.Doc> written = store.put(DOC, id, body);
        Entity<TestKinds.Doc> read = store.get(DOC, id);
        assertThat(read).isEqualTo(written);
        assertThat(read.body()).isEqualTo(body);

        Entity<TestKinds.Doc> replaced = store.put(DOC, id, new TestKinds.Doc(2, "second"));
        assertThat(store.get(DOC, id)).isEqualTo(replaced);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM entities WHERE id = ?").param(id).query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void cachedReadsSeeEveryWriteAndDelete() {
        long kept = TestKinds.unique();
        long changed = TestKinds.unique();
        long deleted = TestKinds.unique();
        store.put(DOC, kept, new TestKinds.Doc(1, "kept"));
        store.put(DOC, changed, new TestKinds.Doc(1, "before"));
        store.put(DOC, deleted, new TestKinds.Doc(1, "deleted"));
        List<Long> ids = List.of(changed, kept, deleted, kept);
        assertThat(store.getAllCached(DOC, ids)).isEqualTo(store.getAll(DOC, ids));

        // Written behind the cache's back, as another node would: the row's updated time gives it away.
        Entity<TestKinds.Doc> rewritten = store.put(DOC, changed, new TestKinds.Doc(2, "after"));
        jdbc.sql("DELETE FROM entities WHERE id = ?").param(deleted).update();

        List<Entity<TestKinds.Doc>> read = store.getAllCached(DOC, ids);
        assertThat(read).extracting(Entity::id).containsExactly(changed, kept, kept);
        assertThat(read.getFirst()).isEqualTo(rewritten);
        assertThat(read.get(1).body().text()).isEqualTo("kept");
        assertThatThrownBy(() -> store.getAllCached(NOTE, List.of(kept))).isInstanceOf(WrongKindException.class);
        assertThat(store.getAllCached(DOC, List.of(-1L, 0L))).isEmpty();
    }

    @Test
    void insertAllGivesFreshIncreasingIdsInOneBatch() {
        List<TestKinds.Doc> bodies = new ArrayList<>();
        for (int i = 0; i < 1200; i++) { // more than one INSERT statement's worth of rows
            bodies.add(new TestKinds.Doc(i, "doc " + i + " " + "z".repeat(i % 300)));
        }
        List<Entity<TestKinds.Doc>> inserted = store.insertAll(DOC, bodies);
        assertThat(inserted).hasSize(1200);
        for (int i = 1; i < inserted.size(); i++) {
            assertThat(inserted.get(i).id()).isGreaterThan(inserted.get(i - 1).id());
        }
        List<Entity<TestKinds.Doc>> read = store.getAll(DOC, inserted.stream().map(Entity::id).toList());
        assertThat(read).isEqualTo(inserted);
    }

    @Test
    void getAllKeepsTheOrderAskedAndSkipsMissingIds() {
        List<Entity<TestKinds.Doc>> docs = store.insertAll(DOC, List.of(new TestKinds.Doc(1, "a"), new TestKinds.Doc(2, "b"),
                new TestKinds.Doc(3, "c")));
        long missing = TestKinds.unique();
        List<Long> asked = List.of(docs.get(2).id(), missing, docs.get(0).id(), -4L, docs.get(1).id(), docs.get(0).id());
        assertThat(store.getAll(DOC, asked)).extracting(e -> e.body().text()).containsExactly("c", "a", "b", "a");
    }

    @Test
    void aRowOfAnotherKindIsAWrongKindError() {
        Entity<TestKinds.Doc> doc = store.insert(DOC, new TestKinds.Doc(1, "d"));
        assertThatThrownBy(() -> store.get(NOTE, doc.id()))
                .isInstanceOf(WrongKindException.class)
                .hasMessageContaining(String.valueOf(doc.id()))
                .hasMessageContaining("test_doc");
        assertThatThrownBy(() -> store.getAll(NOTE, List.of(doc.id())))
                .isInstanceOf(WrongKindException.class);
    }

    @Test
    void putCannotChangeTheKindOfAnExistingId() {
        long id = TestKinds.unique();
        store.put(DOC, id, new TestKinds.Doc(1, "kept"));
        var note = new TestKinds.Note("n", TestKinds.unique(), 1, List.of("kind-change-" + id), null, null);
        assertThatThrownBy(() -> store.put(NOTE, id, note))
                .isInstanceOf(WrongKindException.class)
                .hasMessageContaining(String.valueOf(id));
        assertThat(store.get(DOC, id).body().text()).isEqualTo("kept");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM test_idx_notes_by_tag WHERE entity_id = ?").param(id)
                .query(Long.class).single()).as("rolled-back index rows").isZero();
    }

    @Test
    void missingIdsAreNotFound() {
        long id = TestKinds.unique();
        assertThat(store.find(DOC, id)).isEmpty();
        assertThatThrownBy(() -> store.get(DOC, id))
                .isInstanceOf(EntityNotFoundException.class)
                .hasMessageContaining(String.valueOf(id));
    }

    @Test
    void aRowOfAnUnregisteredKindIsReported() {
        long id = TestKinds.unique();
        insertRaw(id, "test_nobody_knows", new byte[] {0, '{', '}'});
        assertThatThrownBy(() -> store.get(DOC, id))
                .isInstanceOf(UnknownKindException.class)
                .hasMessageContaining(String.valueOf(id))
                .hasMessageContaining("test_nobody_knows");
        assertThat(store.delete(id)).isTrue();
    }

    @Test
    void aCorruptBodyNamesTheEntity() {
        long id = TestKinds.unique();
        insertRaw(id, DOC.name(), new byte[] {1, 0x78, 0x01, 0x02});
        assertThatThrownBy(() -> store.get(DOC, id))
                .isInstanceOf(CorruptEntityException.class)
                .hasMessageContaining("entity " + id);
    }

    @Test
    void bodiesAreCompressedAboveTheThreshold() {
        Entity<TestKinds.Doc> small = store.insert(DOC, new TestKinds.Doc(1, "s"));
        Entity<TestKinds.Doc> large = store.insert(DOC, new TestKinds.Doc(1, "l".repeat(settings.compressionThreshold() * 4)));
        assertThat(firstByte(small.id())).isEqualTo(BodyCodec.RAW_JSON);
        assertThat(firstByte(large.id())).isEqualTo(BodyCodec.DEFLATE_JSON);
        assertThat(store.get(DOC, large.id())).isEqualTo(large);
    }

    @Test
    void aBodyOverTheMaximumIsRejectedAndNothingIsWritten() {
        long id = TestKinds.unique();
        var huge = new TestKinds.Doc(1, "h".repeat(settings.maxBodyBytes()));
        assertThatThrownBy(() -> store.put(DOC, id, huge))
                .isInstanceOf(BodyTooLargeException.class)
                .hasMessageContaining(String.valueOf(id));
        assertThat(store.find(DOC, id)).isEmpty();
        assertThatThrownBy(() -> store.insertAll(DOC, List.of(new TestKinds.Doc(1, "ok"), huge)))
                .isInstanceOf(BodyTooLargeException.class);
    }

    @Test
    void deleteRemovesTheEntityOnce() {
        Entity<TestKinds.Doc> doc = store.insert(DOC, new TestKinds.Doc(1, "gone"));
        assertThat(store.delete(doc.id())).isTrue();
        assertThat(store.find(DOC, doc.id())).isEmpty();
        assertThat(store.delete(doc.id())).isFalse();
    }

    private void insertRaw(long id, String kind, byte[] body) {
        jdbc.sql("INSERT INTO entities (id, kind, updated, body) VALUES (?, ?, UTC_TIMESTAMP(6), ?)")
                .params(id, kind, body)
                .update();
    }

    private byte firstByte(long id) {
        return jdbc.sql("SELECT body FROM entities WHERE id = ?").param(id).query(byte[].class).single()[0];
    }
}
