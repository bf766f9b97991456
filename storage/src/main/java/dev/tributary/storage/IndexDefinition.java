package dev.tributary.storage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One lookup other than by id: an index table of (key columns…, entity_id) over one kind,
 * filled from each entity by {@code extractor} (given the id and the body; it may give several
 * keys, e.g. one per tag).
 * Declare it as a Spring bean and create its table in a Flyway migration ({@link #createTableSql()}).
 * Never change the columns or the meaning of the extractor under the same name: add a new index.
 * A {@link #deferred()} index is written after the entity's transaction, by {@code DeferredIndexes}.
 */
public record IndexDefinition<T>(
        String name,
        String table,
        EntityKind<T> kind,
        List<IndexColumn> columns,
        boolean unique,
        BiFunction<Long, T, List<IndexKey>> extractor,
        boolean isDeferred) {

    private static final int INNODB_MAX_KEY_BYTES = 3072;

    public IndexDefinition {
        IndexColumn.requireIdentifier(name, "index name");
        IndexColumn.requireIdentifier(table, "index table");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(extractor, "extractor");
        columns = List.copyOf(columns);
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("index '" + name + "' needs at least one key column");
        }
        Set<String> seen = new HashSet<>();
        for (IndexColumn column : columns) {
            if (!seen.add(column.name())) {
                throw new IllegalArgumentException("index '" + name + "' repeats column " + column.name());
            }
        }
        if (unique && isDeferred) {
            // Uniqueness is a writer's answer; an index written later cannot give it.
            throw new IllegalArgumentException("index '" + name + "' cannot be both unique and deferred");
        }
        int keyBytes = columns.stream().mapToInt(c -> c.type().maxKeyBytes()).sum() + 8;
        if (keyBytes > INNODB_MAX_KEY_BYTES) {
            throw new IllegalArgumentException("index '" + name + "' key may take " + keyBytes
                    + " bytes, more than InnoDB's " + INNODB_MAX_KEY_BYTES + ": use HASH columns");
        }
    }

    /** A non-unique index: many entities may share a key. */
    public static <T> IndexDefinition<T> of(String name, String table, EntityKind<T> kind,
            List<IndexColumn> columns, Function<T, List<IndexKey>> extractor) {
        return new IndexDefinition<>(name, table, kind, columns, false, (id, body) -> extractor.apply(body), false);
    }

    /** A unique index: at most one entity per key, enforced by the table's primary key. */
    public static <T> IndexDefinition<T> unique(String name, String table, EntityKind<T> kind,
            List<IndexColumn> columns, Function<T, List<IndexKey>> extractor) {
        return new IndexDefinition<>(name, table, kind, columns, true, (id, body) -> extractor.apply(body), false);
    }

    /**
     * A non-unique index whose keys may include the entity's own id, e.g. (source, item id) so
     * that a range query pages a source's entities newest first.
     */
    public static <T> IndexDefinition<T> ofEntity(String name, String table, EntityKind<T> kind,
            List<IndexColumn> columns, BiFunction<Long, T, List<IndexKey>> extractor) {
        return new IndexDefinition<>(name, table, kind, columns, false, extractor, false);
    }

    /**
     * This index, written after each entity's transaction instead of in it: a writer only queues
     * the entity (one row), and {@code DeferredIndexes} writes its keys in batches moments later.
     * For indexes too costly to keep in every write (many keys an entity) whose readers can take a
     * short lag; reads may meanwhile find an entity's old keys, or not yet its new ones.
     */
    public IndexDefinition<T> deferred() {
        return new IndexDefinition<>(name, table, kind, columns, unique, extractor, true);
    }

    /**
     * The DDL of this index's table, for migration authors and tests. A unique index keys on its
     * columns alone; a non-unique one adds entity_id so that each (key, entity) pair is one row.
     * KEY(entity_id) serves the writers' "replace this entity's rows" and the cleaner.
     */
    public String createTableSql() {
        String columnDefs = columns.stream()
                .map(c -> "    " + c.name() + " " + c.type().sql() + ",\n")
                .collect(Collectors.joining());
        String primary = columnList() + (unique ? "" : ", entity_id");
        return """
                CREATE TABLE IF NOT EXISTS %s (
                %s    entity_id BIGINT NOT NULL,
                    PRIMARY KEY (%s),
                    KEY %s_entity (entity_id)
                ) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin""".formatted(table, columnDefs, primary, table);
    }

    /** Comma-separated key column names, for SQL. */
    String columnList() {
        return columns.stream().map(IndexColumn::name).collect(Collectors.joining(", "));
    }

    /** What entity_indexes records, so that a changed definition under an old name is caught. */
    String signature() {
        return "kind=" + kind.name() + " table=" + table + " unique=" + unique + " columns="
                + columns.stream().map(c -> c.name() + " " + c.type().sql()).collect(Collectors.joining(", "));
    }

    boolean lastColumnIsBigint() {
        return columns.getLast().type() instanceof ColumnType.Bigint;
    }

    /** The stored keys the extractor gives for {@code body}, validated and without duplicates. */
    Set<StoredKey> keysOf(long id, T body) {
        List<IndexKey> keys;
        try {
            keys = extractor.apply(id, body);
        } catch (RuntimeException e) {
            throw new IllegalStateException("index '" + name + "' extractor failed on entity " + id, e);
        }
        if (keys == null || keys.isEmpty()) {
            return Set.of();
        }
        Set<StoredKey> stored = new LinkedHashSet<>();
        for (IndexKey key : keys) {
            if (key.size() != columns.size()) {
                throw new IllegalArgumentException("index '" + name + "' gave entity " + id + " a key of "
                        + key.size() + " values for " + columns.size() + " columns");
            }
            stored.add(store(key, id));
        }
        return stored;
    }

    /** Converts a full key or a prefix (the first {@code key.size()} columns) to its stored form. */
    StoredKey store(IndexKey key, long id) {
        if (key.size() > columns.size()) {
            throw new IllegalArgumentException("index '" + name + "' has " + columns.size() + " columns, key has " + key.size());
        }
        List<Object> values = new ArrayList<>(key.size());
        for (int i = 0; i < key.size(); i++) {
            IndexColumn column = columns.get(i);
            Object value = key.values().get(i);
            values.add(switch (column.type()) {
                case ColumnType.Bigint b -> {
                    if (!(value instanceof Long)) {
                        throw badValue(column, value, id);
                    }
                    yield value;
                }
                case ColumnType.Varchar v -> {
                    if (!(value instanceof String s)) {
                        throw badValue(column, value, id);
                    }
                    if (s.codePointCount(0, s.length()) > v.length()) {
                        throw new IllegalArgumentException("index '" + name + "' column " + column.name()
                                + " takes " + v.length() + " characters; entity " + id + " gave "
                                + s.codePointCount(0, s.length()) + " (use a HASH column for long keys)");
                    }
                    yield s;
                }
                case ColumnType.Hash h -> {
                    if (!(value instanceof String s)) {
                        throw badValue(column, value, id);
                    }
                    yield StoredKey.Hash16.of(hash(s));
                }
            });
        }
        return new StoredKey(values);
    }

    /** Reads the key columns of an index row (the row's first columns, in order). */
    StoredKey readKey(ResultSet rs) throws SQLException {
        List<Object> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            values.add(switch (columns.get(i).type()) {
                case ColumnType.Bigint b -> rs.getLong(i + 1);
                case ColumnType.Varchar v -> rs.getString(i + 1);
                case ColumnType.Hash h -> StoredKey.Hash16.of(rs.getBytes(i + 1));
            });
        }
        return new StoredKey(values);
    }

    private IllegalArgumentException badValue(IndexColumn column, Object value, long id) {
        return new IllegalArgumentException("index '" + name + "' column " + column.name() + " (" + column.type().sql()
                + ") cannot hold a " + value.getClass().getSimpleName() + (id > 0 ? " (entity " + id + ")" : ""));
    }

    private static byte[] hash(String value) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)), 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "IndexDefinition[" + name + " on " + kind.name() + "]";
    }
}
