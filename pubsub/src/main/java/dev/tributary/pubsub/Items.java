package dev.tributary.pubsub;

import dev.tributary.storage.EntityStore;
import dev.tributary.storage.IndexKey;
import dev.tributary.storage.IndexReader;
import dev.tributary.storage.SortOrder;
import dev.tributary.storage.WrongKindException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/** Reading items: by id, and a source's own feed, newest first and paged as far back as it goes. */
@Service
public class Items {

    /** Largest page of a source feed. */
    public static final int MAX_PAGE = 200;

    private final EntityStore store;
    private final IndexReader indexes;

    Items(EntityStore store, IndexReader indexes) {
        this.store = store;
        this.indexes = indexes;
    }

    /** The live item with this id; empty if there is none, it is tombstoned, or the id is not an item's. */
    public Optional<Stored<Item>> find(long itemId) {
        if (itemId <= 0) {
            return Optional.empty();
        }
        try {
            return store.find(PubsubKinds.ITEM, itemId).filter(item -> !item.body().deleted()).map(Stored::of);
        } catch (WrongKindException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the item is live, its row locked until the caller's transaction ends: a writer that
     * keeps an item (a star, a comment) must not slip between a purge's look at it and its
     * tombstone ({@link Publisher#purge}).
     *
     * @throws IllegalStateException outside a transaction
     */
    public boolean holdLive(long itemId) {
        return store.getAllForUpdate(PubsubKinds.ITEM, List.of(itemId)).stream().anyMatch(item -> !item.body().deleted());
    }

    /**
     * The live items with these ids in one round trip, in the order asked. Items are shared by
     * many timelines, so decoded ones are cached (and checked against their row on every read).
     */
    public List<Stored<Item>> getAll(Collection<Long> ids) {
        return store.getAllCached(PubsubKinds.ITEM, ids).stream().filter(item -> !item.body().deleted()).map(Stored::of).toList();
    }

    /**
     * A page of a source's live items, newest first: older than {@code maxId} and newer than
     * {@code sinceId} (either may be null).
     */
    public List<Stored<Item>> ofSource(long sourceId, @Nullable Long maxId, @Nullable Long sinceId, int limit) {
        checkLimit(limit);
        return indexes.range(PubsubKinds.ITEM_SOURCES, IndexKey.of(sourceId), sinceId, maxId, limit, SortOrder.DESCENDING)
                .stream().map(Stored::of).toList();
    }

    /**
     * A page of a source's live items read upwards: the oldest ones newer than {@code afterId}
     * (and older than {@code maxId}, which may be null), oldest first.
     */
    public List<Stored<Item>> ofSourceAfter(long sourceId, long afterId, @Nullable Long maxId, int limit) {
        checkLimit(limit);
        return indexes.range(PubsubKinds.ITEM_SOURCES, IndexKey.of(sourceId), afterId, maxId, limit, SortOrder.ASCENDING)
                .stream().map(Stored::of).toList();
    }

    private static void checkLimit(int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_PAGE + ", not " + limit);
        }
    }
}
