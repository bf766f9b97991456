package dev.tributary.storage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Queries through index tables. Each one reads index rows, multi-gets their entities in one
 * round trip, and keeps an entity only if its current body still yields the row's key, so a
 * stale index row (a crash, a missed update) may shorten an answer but never falsify it.
 */
@Service
public class IndexReader {

    /** Rounds a range query may take to make up for stale rows it dropped, before returning short. */
    static final int MAX_RANGE_ROUNDS = 4;

    private final IndexTables tables;
    private final IndexStates states;
    private final EntityStore store;
    private final EntityDecoder decoder;

    IndexReader(IndexTables tables, IndexStates states, EntityStore store, EntityDecoder decoder) {
        this.tables = tables;
        this.states = states;
        this.store = store;
        this.decoder = decoder;
    }

    /**
     * The entities whose body yields exactly {@code key}, by ascending id (at most {@code limit}).
     *
     * @throws IndexNotReadyException while the index is being back-filled
     */
    public <T> List<Entity<T>> lookup(IndexDefinition<T> index, IndexKey key, int limit) {
        requireLimit(limit);
        requireFullKey(index, key);
        states.requireReady(index);
        StoredKey stored = index.store(key, 0);
        // The exact-key filter guards against the SQL comparison being looser than Java's (PAD SPACE).
        return checked(index, tables.lookup(index, stored, limit).stream().filter(row -> row.key().equals(stored)).toList());
    }

    /** {@link #lookup(IndexDefinition, IndexKey, int)} with no practical limit; for keys that match few entities. */
    public <T> List<Entity<T>> lookup(IndexDefinition<T> index, IndexKey key) {
        return lookup(index, key, Integer.MAX_VALUE);
    }

    /** The one entity of a unique index with this key. */
    public <T> Optional<Entity<T>> lookupUnique(IndexDefinition<T> index, IndexKey key) {
        if (!index.unique()) {
            throw new IllegalArgumentException("index '" + index.name() + "' is not unique");
        }
        List<Entity<T>> found = lookup(index, key, 1);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    /**
     * The entities of a unique index for many keys in one round trip (at most
     * {@link EntityStore#MAX_IDS_PER_QUERY} keys), by key; keys with no entity are absent.
     */
    public <T> Map<IndexKey, Entity<T>> lookupUnique(IndexDefinition<T> index, Collection<IndexKey> keys) {
        if (!index.unique()) {
            throw new IllegalArgumentException("index '" + index.name() + "' is not unique");
        }
        if (keys.size() > EntityStore.MAX_IDS_PER_QUERY) {
            throw new IllegalArgumentException("at most " + EntityStore.MAX_IDS_PER_QUERY + " keys per lookup, not " + keys.size());
        }
        keys.forEach(key -> requireFullKey(index, key));
        states.requireReady(index);
        Map<StoredKey, IndexKey> asked = new LinkedHashMap<>();
        keys.forEach(key -> asked.put(index.store(key, 0), key));
        List<IndexTables.IndexRow> rows = tables.lookupAll(index, asked.keySet()).stream()
                .filter(row -> asked.containsKey(row.key()))
                .toList();
        Map<Long, IndexKey> keyOfEntity = new HashMap<>();
        rows.forEach(row -> keyOfEntity.put(row.entityId(), asked.get(row.key())));
        Map<IndexKey, Entity<T>> result = new LinkedHashMap<>();
        for (Entity<T> entity : checked(index, rows)) {
            result.put(keyOfEntity.get(entity.id()), entity);
        }
        return result;
    }

    /**
     * Up to {@code limit} entities under {@code prefix} (every column but the last) whose last
     * column, a BIGINT, lies strictly between {@code after} and {@code before} (either may be
     * null), ordered by that column (ties by entity id). Page on by passing the last entity's
     * value as the next {@code before} (descending) or {@code after} (ascending).
     */
    public <T> List<Entity<T>> range(IndexDefinition<T> index, IndexKey prefix, Long after, Long before,
            int limit, SortOrder order) {
        requireLimit(limit);
        if (!index.lastColumnIsBigint()) {
            throw new IllegalArgumentException("index '" + index.name() + "' cannot be ranged: its last column is not BIGINT");
        }
        if (prefix.size() != index.columns().size() - 1) {
            throw new IllegalArgumentException("index '" + index.name() + "' range prefix needs "
                    + (index.columns().size() - 1) + " values, not " + prefix.size());
        }
        states.requireReady(index);
        StoredKey storedPrefix = index.store(prefix, 0);
        List<Entity<T>> result = new ArrayList<>(Math.min(limit, 1000));
        IndexTables.IndexRow resumeFrom = null;
        for (int round = 0; round < MAX_RANGE_ROUNDS && result.size() < limit; round++) {
            int wanted = limit - result.size();
            List<IndexTables.IndexRow> rows = tables.range(index, storedPrefix, after, before, resumeFrom, wanted, order);
            result.addAll(checked(index, rows.stream().filter(row -> row.key().startsWith(storedPrefix)).toList()));
            if (rows.size() < wanted) {
                break;
            }
            resumeFrom = rows.getLast();
        }
        return result;
    }

    /** Multi-gets the rows' entities and keeps those whose current keys include the row's key. */
    private <T> List<Entity<T>> checked(IndexDefinition<T> index, List<IndexTables.IndexRow> rows) {
        if (rows.isEmpty()) {
            return List.of();
        }
        Map<Long, Entity<T>> byId = new HashMap<>();
        for (EntityRows.Row row : store.fetch(rows.stream().map(IndexTables.IndexRow::entityId).toList())) {
            // A row pointing at an entity of another kind is stale, not an error of the caller's.
            if (row.kind().equals(index.kind().name())) {
                byId.put(row.id(), decoder.decode(index.kind(), row));
            }
        }
        List<Entity<T>> result = new ArrayList<>(rows.size());
        for (IndexTables.IndexRow row : rows) {
            Entity<T> entity = byId.get(row.entityId());
            if (entity != null && index.keysOf(entity.id(), entity.body()).contains(row.key())) {
                result.add(entity);
            }
        }
        return result;
    }

    private static void requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive, not " + limit);
        }
    }

    private static void requireFullKey(IndexDefinition<?> index, IndexKey key) {
        if (key.size() != index.columns().size()) {
            throw new IllegalArgumentException("index '" + index.name() + "' keys have "
                    + index.columns().size() + " values, not " + key.size());
        }
    }
}
