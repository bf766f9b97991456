package dev.tributary.pubsub;

import dev.tributary.pubsub.fanout.CurrentItems;
import dev.tributary.pubsub.fanout.FanoutQueue;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.pull.PulledFeed;
import dev.tributary.pubsub.pull.SourceAudiences;
import dev.tributary.storage.DuplicateIndexKeyException;
import dev.tributary.storage.Entity;
import dev.tributary.storage.EntityStore;
import dev.tributary.storage.IndexKey;
import dev.tributary.storage.IndexReader;
import dev.tributary.storage.Transactions;
import dev.tributary.storage.WrongKindException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * Publishing: {@link #publish} stores each entry once per (source, guid) and, in the same
 * transaction, records a durable fan-out task per new item and audience (the source, and the
 * people who attached it to their profile). It returns once that commits; workers do the rest.
 * {@link #tombstone} deletes an item for every reader.
 */
@Service
public class Publisher {

    /** Entries per publish call: one multi-get, one multi-row insert. */
    public static final int MAX_ITEMS_PER_PUBLISH = 500;

    private final EntityStore store;
    private final IndexReader indexes;
    private final Sources sources;
    private final FanoutQueue fanout;
    private final Transactions tx;
    private final Clock clock;
    private final Inbox inbox;
    private final CurrentItems currentItems;
    private final StarredItems starred;
    private final LinkShares shares;
    private final SourceAudiences audiences;
    private final PulledFeed pulled;
    private final FeedStories feedStories;
    private final ItemContents contents;
    private final XmppOutbox xmpp;

    Publisher(EntityStore store, IndexReader indexes, Sources sources, FanoutQueue fanout, Transactions tx, Inbox inbox,
            CurrentItems currentItems, StarredItems starred, LinkShares shares, SourceAudiences audiences,
            PulledFeed pulled, FeedStories feedStories, ItemContents contents, XmppOutbox xmpp, ObjectProvider<Clock> clock) {
        this.xmpp = xmpp;
        this.contents = contents;
        this.feedStories = feedStories;
        this.audiences = audiences;
        this.pulled = pulled;
        this.store = store;
        this.shares = shares;
        this.starred = starred;
        this.currentItems = currentItems;
        this.inbox = inbox;
        this.indexes = indexes;
        this.sources = sources;
        this.fanout = fanout;
        this.tx = tx;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Publishes entries of one source. Entries whose guid is new become items (ids increase with
     * their publication date, so a feed's newest entry is also the newest in timelines); an entry
     * seen before with changed content updates its item in place; duplicate guids within the
     * call collapse to the last one.
     *
     * @throws SourceNotFoundException if there is no such source
     */
    public PublishResult publish(long sourceId, List<NewItem> entries) {
        return publish(sourceId, entries, null);
    }

    /**
     * {@link #publish(long, List)} of a fetched document's last (or only) part, recording in the
     * same transaction that the document carried these entries' items and {@code carriedBefore}
     * (what its earlier parts carried), as {@link #documentCarried} does: a subscription never
     * sees this publish without the document, which would leave its new items to neither the
     * back-fill nor the fan-out.
     */
    public PublishResult publishDocument(long sourceId, List<NewItem> entries, Collection<Long> carriedBefore) {
        return publish(sourceId, entries, List.copyOf(carriedBefore));
    }

    private PublishResult publish(long sourceId, List<NewItem> entries, @Nullable List<Long> document) {
        if (entries.size() > MAX_ITEMS_PER_PUBLISH) {
            throw new IllegalArgumentException("at most " + MAX_ITEMS_PER_PUBLISH + " entries per publish, not " + entries.size());
        }
        Source source = sources.get(sourceId).body();
        Map<String, NewItem> byGuid = new LinkedHashMap<>();
        entries.forEach(entry -> byGuid.put(entry.guid(), entry));
        if (byGuid.isEmpty()) {
            if (document != null) {
                documentCarried(sourceId, document);
            }
            return new PublishResult(List.of(), List.of(), 0, List.of());
        }
        try {
            return publishOnce(sourceId, source, byGuid, document);
        } catch (DuplicateIndexKeyException e) {
            // A concurrent publish of the same guid won; now ours sees it and updates instead.
            return publishOnce(sourceId, source, byGuid, document);
        }
    }

    private PublishResult publishOnce(long sourceId, Source source, Map<String, NewItem> byGuid, @Nullable List<Long> document) {
        PublishResult result = tx.write("publish to source " + sourceId, status -> {
            // First, so the mode cannot change until this commits: each new item is pushed or pulled, never both.
            // It also orders this publish with subscriptions to the source (see FanoutTask#reaches).
            SourceAudiences.Publishing publishing = audiences.lockForPublish(sourceId);
            boolean pull = publishing.pulled();
            Map<IndexKey, Entity<Item>> existing = lockedByGuid(sourceId, byGuid.keySet());
            // Only the digests: whether a republished entry's content changed, without reading it.
            Map<Long, byte[]> storedContents = contents.digests(existing.values().stream()
                    .filter(item -> !item.body().deleted()).map(Entity::id).toList());
            Instant now = now();
            List<NewItem> fresh = new ArrayList<>();
            List<Long> updated = new ArrayList<>();
            List<Long> carried = new ArrayList<>();
            int unchanged = 0;
            for (NewItem entry : byGuid.values()) {
                Entity<Item> stored = existing.get(IndexKey.of(sourceId, entry.guid()));
                if (stored == null) {
                    fresh.add(entry);
                } else if (!stored.body().deleted() && (stored.body().differsFrom(entry)
                        || ItemContents.differs(storedContents.get(stored.id()), entry.content()))) {
                    store.put(PubsubKinds.ITEM, stored.id(), stored.body().updatedFrom(entry));
                    contents.save(stored.id(), entry.content());
                    updated.add(stored.id());
                    carried.add(stored.id());
                } else {
                    unchanged++;
                    if (!stored.body().deleted()) {
                        carried.add(stored.id());
                    }
                }
            }
            fresh.sort(Comparator.comparing(NewItem::publishedAt));
            // A feed item's story; people's and groups' posts have none (the same link posted twice is two conversations).
            Map<String, Long> stories = source.kind() == SourceKind.FEED && !fresh.isEmpty()
                    ? feedStories.assign(sourceId, source, byGuid.values(), fresh) : Map.of();
            List<Entity<Item>> created = store.insertAll(PubsubKinds.ITEM,
                    fresh.stream().map(entry -> Item.from(sourceId, entry, now, stories.get(entry.guid()))).toList());
            for (int i = 0; i < created.size(); i++) {
                if (fresh.get(i).content() != null) {
                    contents.save(created.get(i).id(), fresh.get(i).content());
                }
            }
            if (source.kind() == SourceKind.USER) {
                shares.recordAll(source.ownerId(), sourceId, created);
            }
            deliver(sourceId, created, pull, publishing.seq());
            inbox.itemsChanged(updated);
            // Its public node gets each new item, and each changed one again under the same id.
            List<Long> toPublish = new ArrayList<>(created.size() + updated.size());
            created.forEach(item -> toPublish.add(item.id()));
            toPublish.addAll(updated);
            xmpp.published(sourceId, toPublish);
            created.forEach(item -> carried.add(item.id()));
            if (document != null) {
                List<Long> all = new ArrayList<>(document);
                all.addAll(carried);
                currentItems.replace(sourceId, all);
            }
            return new PublishResult(created.stream().map(Entity::id).toList(), updated, unchanged, carried);
        });
        return result;
    }

    /**
     * Records that a feed's latest fetched document carried exactly these items (the
     * {@link PublishResult#carried} of its publish calls): what a new subscriber receives
     * ({@code tributary.fanout.backfill} of them). A no-op when they are the ones already recorded.
     */
    public void documentCarried(long sourceId, Collection<Long> itemIds) {
        tx.write("record the current items of source " + sourceId, status -> {
            // Counted as a publish: a back-fill read before this is stale (Subscriptions reads it again).
            audiences.lockForPublish(sourceId);
            return currentItems.replace(sourceId, itemIds);
        });
    }

    /**
     * The stored items of these guids, re-read under row locks so that an update cannot race a
     * tombstone (and resurrect the item) or another update.
     */
    private Map<IndexKey, Entity<Item>> lockedByGuid(long sourceId, java.util.Collection<String> guids) {
        Map<IndexKey, Entity<Item>> found = indexes.lookupUnique(PubsubKinds.ITEM_GUIDS,
                guids.stream().map(guid -> IndexKey.of(sourceId, guid)).toList());
        Map<IndexKey, Entity<Item>> locked = new java.util.HashMap<>();
        for (Entity<Item> item : store.getAllForUpdate(PubsubKinds.ITEM, found.values().stream().map(Entity::id).toList())) {
            locked.put(IndexKey.of(sourceId, item.body().guid()), item);
        }
        return locked;
    }

    /**
     * One delivery per item and audience: the source itself and every profile that relays it; a
     * pulled source's own audience gets none, its items are stored as pulled instead.
     */
    private void deliver(long sourceId, List<Entity<Item>> created, boolean pull, long seq) {
        if (created.isEmpty()) {
            return;
        }
        Map<Long, MediaType> items = new LinkedHashMap<>();
        created.forEach(item -> items.put(item.id(), item.body().mediaType()));
        List<Long> targets = new ArrayList<>();
        if (pull) {
            pulled.published(sourceId, items).ifPresent(targets::add);
        } else {
            targets.add(sourceId);
        }
        targets.addAll(sources.relaysOf(sourceId));
        fanout.deliver(sourceId, targets, items, seq);
    }

    /**
     * Deletes an item for every reader: the body becomes a tombstone at once (timelines skip it,
     * its guid is never published again) and a retraction removes its inbox entries and their
     * unread counts. False if there is no such live item.
     */
    public boolean tombstone(long itemId) {
        try {
            return tombstoneOnce(itemId);
        } catch (WrongKindException e) {
            return false;
        }
    }

    private boolean tombstoneOnce(long itemId) {
        boolean done = tx.write("tombstone item " + itemId, status -> {
            Optional<Entity<Item>> item = store.getAllForUpdate(PubsubKinds.ITEM, List.of(itemId)).stream().findFirst();
            if (item.isEmpty() || item.get().body().deleted()) {
                return false;
            }
            Item body = item.get().body();
            store.put(PubsubKinds.ITEM, itemId, body.tombstoned(now()));
            pulled.tombstoned(body.sourceId(), itemId);
            fanout.retract(itemId, body.sourceId(), body.mediaType());
            xmpp.retracted(body.sourceId(), List.of(itemId));
            shares.removeAll(List.of(itemId));
            contents.removeAll(List.of(itemId));
            inbox.itemsChanged(List.of(itemId));
            return true;
        });
        return done;
    }

    /**
     * Purges items of a feed nobody reads any more, in one transaction: each live item of these
     * (at most {@link #MAX_ITEMS_PER_PUBLISH}) that nobody starred is tombstoned as by
     * {@link #tombstone}, so its content goes, its guid stays (the feed's old entries are not new
     * when someone follows it again) and its inbox rows are retracted with their unread counts.
     * {@code keptByCaller} names, among the locked items, more that must stay (the caller's own
     * reasons); it runs under the items' locks, so a writer that holds an item first
     * ({@link Items#holdLive}) is seen. The ids purged.
     */
    public List<Long> purge(Collection<Long> itemIds, Function<List<Long>, Set<Long>> keptByCaller) {
        if (itemIds.size() > MAX_ITEMS_PER_PUBLISH) {
            throw new IllegalArgumentException("at most " + MAX_ITEMS_PER_PUBLISH + " items per purge, not " + itemIds.size());
        }
        if (itemIds.isEmpty()) {
            return List.of();
        }
        return tx.write("purge " + itemIds.size() + " items", status -> {
            List<Entity<Item>> locked = store.getAllForUpdate(PubsubKinds.ITEM, List.copyOf(itemIds));
            List<Long> lockedIds = locked.stream().map(Entity::id).toList();
            Set<Long> kept = new HashSet<>(starred.byAnyone(lockedIds));
            kept.addAll(keptByCaller.apply(lockedIds));
            List<Long> purged = new ArrayList<>();
            Instant now = now();
            for (Entity<Item> item : locked) {
                if (item.body().deleted() || kept.contains(item.id())) {
                    continue;
                }
                store.put(PubsubKinds.ITEM, item.id(), item.body().tombstoned(now));
                pulled.tombstoned(item.body().sourceId(), item.id());
                fanout.retract(item.id(), item.body().sourceId(), item.body().mediaType());
                xmpp.retracted(item.body().sourceId(), List.of(item.id()));
                purged.add(item.id());
            }
            contents.removeAll(purged);
            inbox.itemsChanged(purged);
            return purged;
        });
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
