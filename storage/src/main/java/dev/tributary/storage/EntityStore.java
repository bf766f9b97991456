package dev.tributary.storage;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;

/**
 * The schemaless entity store: entities by id, written together with every registered index of
 * their kind in one transaction. Lookups other than by id are on {@link IndexReader}.
 */
@Service
public class EntityStore {

    /** Ids per {@code IN (...)} list; far above any page size, so a multi-get is one round trip. */
    static final int MAX_IDS_PER_QUERY = 1000;

    private final EntityRows rows;
    private final IndexTables indexTables;
    private final IndexRegistry indexes;
    private final KindRegistry kinds;
    private final EntityDecoder decoder;
    private final BodyCodec codec;
    private final IdGenerator ids;
    private final EntityCache cache;
    private final Transactions tx;
    private final DeferredIndexes deferred;
    private final Clock clock;

    EntityStore(EntityRows rows, IndexTables indexTables, IndexRegistry indexes, KindRegistry kinds,
            EntityDecoder decoder, BodyCodec codec, IdGenerator ids, EntityCache cache, Transactions tx,
            DeferredIndexes deferred, ObjectProvider<Clock> clock) {
        this.cache = cache;
        this.deferred = deferred;
        this.rows = rows;
        this.indexTables = indexTables;
        this.indexes = indexes;
        this.kinds = kinds;
        this.decoder = decoder;
        this.codec = codec;
        this.ids = ids;
        this.tx = tx;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** Stores a new entity under a fresh id. */
    public <T> Entity<T> insert(EntityKind<T> kind, T body) {
        return insertAll(kind, List.of(body)).getFirst();
    }

    /**
     * Stores new entities under fresh, increasing ids: one multi-row INSERT into entities and one
     * per index table, in one transaction. The result is in the order of {@code bodies}.
     */
    public <T> List<Entity<T>> insertAll(EntityKind<T> kind, List<? extends T> bodies) {
        kinds.require(kind, 0);
        if (bodies.isEmpty()) {
            return List.of();
        }
        Instant now = now();
        List<Entity<T>> entities = new ArrayList<>(bodies.size());
        List<EntityRows.NewRow> newRows = new ArrayList<>(bodies.size());
        for (T body : bodies) {
            long id = ids.next();
            newRows.add(new EntityRows.NewRow(id, kind.name(), now, codec.encode(id, body)));
            entities.add(new Entity<>(id, kind, now, body));
        }
        // Extract keys before opening the transaction: a failing extractor then costs no round trip.
        Map<IndexDefinition<T>, List<IndexTables.IndexRow>> indexRows = indexRows(kind, entities);
        tx.run("insert " + kind.name(), () -> {
            rows.insertAll(newRows);
            indexRows.forEach((index, list) -> insertIndexRows(index, list, entities));
            queueDeferred(kind, entities.stream().map(Entity::id).toList());
        });
        return entities;
    }

    /**
     * Creates or replaces the entity {@code id}: its body, and its rows in every index of its
     * kind, in one transaction. An existing entity of another kind is left untouched.
     *
     * @throws WrongKindException if {@code id} belongs to an entity of another kind
     */
    public <T> Entity<T> put(EntityKind<T> kind, long id, T body) {
        if (id <= 0) {
            throw new IllegalArgumentException("entity ids are positive, not " + id);
        }
        kinds.require(kind, id);
        Instant now = now();
        byte[] encoded = codec.encode(id, body);
        Entity<T> entity = new Entity<>(id, kind, now, body);
        Map<IndexDefinition<T>, List<IndexTables.IndexRow>> indexRows = indexRows(kind, List.of(entity));
        tx.run("put " + id, () -> {
            // The upsert leaves the row X-locked, so the kind read next is stable until commit.
            rows.upsert(id, kind.name(), now, encoded);
            String stored = rows.kindOf(id).orElseThrow();
            if (!stored.equals(kind.name())) {
                throw new WrongKindException(id, kind.name(), stored);
            }
            for (IndexDefinition<T> index : indexes.forKind(kind)) {
                if (index.isDeferred()) {
                    deferred.queue(index, List.of(id));
                } else {
                    indexTables.deleteByEntities(index, List.of(id));
                    insertIndexRows(index, indexRows.getOrDefault(index, List.of()), List.of(entity));
                }
            }
        });
        return entity;
    }

    /** @throws EntityNotFoundException if there is no such entity */
    public <T> Entity<T> get(EntityKind<T> kind, long id) {
        return find(kind, id).orElseThrow(() -> new EntityNotFoundException(id));
    }

    public <T> Optional<Entity<T>> find(EntityKind<T> kind, long id) {
        List<Entity<T>> found = getAll(kind, List.of(id));
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    /**
     * The entities with these ids in one round trip, in the order asked (an id asked twice comes
     * back twice), skipping ids with no entity. Non-positive ids can never exist and are skipped.
     *
     * @throws WrongKindException if one of the ids is an entity of another kind
     */
    public <T> List<Entity<T>> getAll(EntityKind<T> kind, Collection<Long> ids) {
        kinds.require(kind, 0);
        Map<Long, Entity<T>> byId = new HashMap<>();
        for (EntityRows.Row row : fetch(ids)) {
            byId.put(row.id(), decoder.decode(kind, row));
        }
        return inOrder(ids, byId);
    }

    /**
     * {@link #getAll} through the cache of decoded entities: still one round trip, but the bodies
     * of cached entities are not sent and not decoded again when their row's {@code updated} is
     * unchanged. For hot read paths over entities many readers share (timeline items).
     *
     * @throws WrongKindException if one of the ids is an entity of another kind
     */
    public <T> List<Entity<T>> getAllCached(EntityKind<T> kind, Collection<Long> ids) {
        kinds.require(kind, 0);
        List<Long> positive = ids.stream().filter(id -> id != null && id > 0).distinct().toList();
        if (positive.size() > MAX_IDS_PER_QUERY) {
            return getAll(kind, ids);
        }
        Map<Long, Entity<?>> cached = cache.present(positive);
        Map<Long, Entity<T>> byId = new HashMap<>();
        List<Long> stale = new ArrayList<>();
        for (EntityRows.Row row : rows.byIdsKnowing(positive, cached.keySet())) {
            Entity<?> hit = cached.get(row.id());
            if (row.body() != null) {
                byId.put(row.id(), remember(decoder.decode(kind, row)));
            } else if (hit != null && hit.updated().equals(row.updated()) && hit.kind().equals(kind)) {
                byId.put(row.id(), kind.bodyType().isInstance(hit.body()) ? cast(hit) : null);
            } else {
                stale.add(row.id());
            }
        }
        for (EntityRows.Row row : stale.isEmpty() ? List.<EntityRows.Row>of() : rows.byIds(stale)) {
            byId.put(row.id(), remember(decoder.decode(kind, row)));
        }
        return inOrder(ids, byId);
    }

    /** The entities in the order of {@code ids} (repeats kept, missing ones skipped). */
    private static <T> List<Entity<T>> inOrder(Collection<Long> ids, Map<Long, Entity<T>> byId) {
        List<Entity<T>> result = new ArrayList<>(ids.size());
        for (Long id : ids) {
            Entity<T> entity = id == null ? null : byId.get(id);
            if (entity != null) {
                result.add(entity);
            }
        }
        return result;
    }

    private <T> Entity<T> remember(Entity<T> entity) {
        cache.put(entity);
        return entity;
    }

    @SuppressWarnings("unchecked")
    private static <T> Entity<T> cast(Entity<?> entity) {
        return (Entity<T>) entity;
    }

    /**
     * {@link #getAll} for a read-modify-write: inside the caller's transaction, the rows stay
     * locked until it ends, so a concurrent writer of the same entities waits.
     *
     * @throws IllegalStateException outside a transaction, where the lock would end at once
     */
    public <T> List<Entity<T>> getAllForUpdate(EntityKind<T> kind, Collection<Long> ids) {
        if (!org.springframework.transaction.support.TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("getAllForUpdate needs the caller's transaction");
        }
        kinds.require(kind, 0);
        List<Long> positive = ids.stream().filter(id -> id != null && id > 0).distinct().sorted().toList();
        if (positive.size() > MAX_IDS_PER_QUERY) {
            throw new IllegalArgumentException("at most " + MAX_IDS_PER_QUERY + " ids per locking read, not " + positive.size());
        }
        Map<Long, Entity<T>> byId = new HashMap<>();
        for (EntityRows.Row row : rows.byIds(positive, true)) {
            byId.put(row.id(), decoder.decode(kind, row));
        }
        return inOrder(ids, byId);
    }

    /** Removes the entity and its index rows; false if there was none. */
    public boolean delete(long id) {
        if (id <= 0) {
            return false;
        }
        return tx.write("delete " + id, () -> {
            Optional<String> kindName = rows.kindOfForUpdate(id);
            if (kindName.isEmpty()) {
                return false;
            }
            // Rows of an unregistered kind's indexes are left to the cleaner's orphan sweep.
            kinds.byName(kindName.get()).ifPresent(kind -> {
                for (IndexDefinition<?> index : indexes.forKind(kind)) {
                    if (index.isDeferred()) {
                        deferred.queue(index, List.of(id));
                    } else {
                        indexTables.deleteByEntities(index, List.of(id));
                    }
                }
            });
            cache.forget(id);
            return rows.delete(id);
        });
    }

    /** Rows for the distinct positive ids, chunked only past {@link #MAX_IDS_PER_QUERY}. */
    List<EntityRows.Row> fetch(Collection<Long> ids) {
        Set<Long> distinct = new LinkedHashSet<>();
        for (Long id : ids) {
            if (id != null && id > 0) {
                distinct.add(id);
            }
        }
        if (distinct.isEmpty()) {
            return List.of();
        }
        List<Long> all = List.copyOf(distinct);
        List<EntityRows.Row> result = new ArrayList<>(all.size());
        for (int start = 0; start < all.size(); start += MAX_IDS_PER_QUERY) {
            result.addAll(rows.byIds(all.subList(start, Math.min(all.size(), start + MAX_IDS_PER_QUERY))));
        }
        return result;
    }

    private <T> Map<IndexDefinition<T>, List<IndexTables.IndexRow>> indexRows(EntityKind<T> kind, List<Entity<T>> entities) {
        Map<IndexDefinition<T>, List<IndexTables.IndexRow>> result = new HashMap<>();
        for (IndexDefinition<T> index : indexes.forKind(kind)) {
            if (index.isDeferred()) {
                continue;
            }
            List<IndexTables.IndexRow> list = new ArrayList<>();
            for (Entity<T> entity : entities) {
                for (StoredKey key : index.keysOf(entity.id(), entity.body())) {
                    list.add(new IndexTables.IndexRow(key, entity.id()));
                }
            }
            result.put(index, list);
        }
        return result;
    }

    private <T> void insertIndexRows(IndexDefinition<T> index, List<IndexTables.IndexRow> list, List<Entity<T>> entities) {
        try {
            indexTables.insert(index, list, false);
        } catch (DuplicateKeyException e) {
            // Keys are de-duplicated per entity and its old rows deleted first, so a duplicate means
            // another entity already holds the key of a unique index.
            throw new DuplicateIndexKeyException(index.name(), entities.stream().map(Entity::id).toList(), e);
        }
    }

    /** Queues new entities for their kind's deferred indexes, inside the writer's transaction. */
    private <T> void queueDeferred(EntityKind<T> kind, List<Long> entityIds) {
        for (IndexDefinition<T> index : indexes.forKind(kind)) {
            if (index.isDeferred()) {
                deferred.queue(index, entityIds);
            }
        }
    }

    /** DATETIME(6) keeps microseconds: truncate so that what we return equals what we read back. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
