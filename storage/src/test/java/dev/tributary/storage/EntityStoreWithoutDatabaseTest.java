package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.core.ResolvableType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.AbstractDataSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/** Requests that need no database must not reach it: here every connection attempt fails the test. */
class EntityStoreWithoutDatabaseTest {

    private final DataSource unreachable = new AbstractDataSource() {
        @Override
        public Connection getConnection() {
            throw new AssertionError("the database was queried");
        }

        @Override
        public Connection getConnection(String username, String password) {
            throw new AssertionError("the database was queried");
        }
    };

    private final EntityStore store = store();

    @Test
    void emptyAndImpossibleIdListsRunNoQuery() {
        assertThat(store.getAll(TestKinds.DOC, List.of())).isEmpty();
        assertThat(store.getAll(TestKinds.DOC, List.of(0L, -1L, Long.MIN_VALUE))).isEmpty();
        assertThat(store.find(TestKinds.DOC, 0)).isEmpty();
        assertThatThrownBy(() -> store.get(TestKinds.DOC, -3)).isInstanceOf(EntityNotFoundException.class).hasMessageContaining("-3");
        assertThat(store.delete(0)).isFalse();
        assertThat(store.insertAll(TestKinds.DOC, List.of())).isEmpty();
    }

    @Test
    void writesAreCheckedBeforeAnyQuery() {
        assertThatThrownBy(() -> store.put(TestKinds.DOC, 0, new TestKinds.Doc(1, "x")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.put(TestKinds.DOC, 5, new TestKinds.Doc(1, "x".repeat(2_000_000))))
                .isInstanceOf(BodyTooLargeException.class).hasMessageContaining("entity 5");
        var unregistered = new EntityKind<>("test_unregistered", TestKinds.Doc.class);
        assertThatThrownBy(() -> store.put(unregistered, 6, new TestKinds.Doc(1, "x")))
                .isInstanceOf(UnknownKindException.class).hasMessageContaining("test_unregistered");
    }

    private EntityStore store() {
        var beans = new StaticListableBeanFactory();
        beans.addBean("doc", TestKinds.DOC);
        KindRegistry kinds = new KindRegistry(beans.getBeanProvider(ResolvableType.forClass(EntityKind.class)));
        JdbcClient jdbc = JdbcClient.create(unreachable);
        JdbcTemplate template = new JdbcTemplate(unreachable);
        BodyCodec codec = new BodyCodec(StorageSettings.defaults());
        IndexRegistry indexes = new IndexRegistry(beans.getBeanProvider(ResolvableType.forClass(IndexDefinition.class)), kinds);
        EntityRows rows = new EntityRows(jdbc, template);
        IndexTables tables = new IndexTables(jdbc, template);
        Transactions tx = new Transactions(new DataSourceTransactionManager(unreachable));
        return new EntityStore(rows, tables, indexes, kinds,
                new EntityDecoder(kinds, codec), codec, new IdGenerator(NodeSlot.fixed(1), System::currentTimeMillis),
                new EntityCache(StorageSettings.defaults()), tx, new DeferredIndexes(jdbc, indexes, rows, tables, codec, tx),
                beans.getBeanProvider(ResolvableType.forClass(Clock.class)));
    }
}
