package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.XmppOutbox;

import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.InboxScan;
import dev.tributary.pubsub.RedisFailures;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.pubsub.Unread;
import dev.tributary.storage.Transactions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionStatus;

/**
 * The one façade of a person's inbox: its table, the home-timeline window read from it, read
 * marks, the unread counters, trimming, and the stamps that void kept pages. Every change to an
 * inbox passes here, so counters, announcements and stamps move with it without a caller having
 * to remember them. Used by pubsub's own parts; readers outside pubsub go through
 * {@link dev.tributary.pubsub.HomeFeed}.
 */
@Service
public class Inbox {

    private final InboxTable table;
    private final TimelinePages pages;
    private final ReadMarks marks;
    private final UnreadCounters counters;
    private final PageStamps stamps;
    private final InboxTrimQueue trimQueue;
    private final Transactions tx;
    private final KeptUnread keptUnread;
    private final XmppOutbox xmpp;
    private final CountHorizon horizon;

    Inbox(InboxTable table, TimelinePages pages, ReadMarks marks, UnreadCounters counters, PageStamps stamps,
            InboxTrimQueue trimQueue, Transactions tx, KeptUnread keptUnread, XmppOutbox xmpp, CountHorizon horizon) {
        this.horizon = horizon;
        this.xmpp = xmpp;
        this.keptUnread = keptUnread;
        this.table = table;
        this.pages = pages;
        this.marks = marks;
        this.counters = counters;
        this.stamps = stamps;
        this.trimQueue = trimQueue;
        this.tx = tx;
    }

    /**
     * Writes the rows not there yet, inside the caller's transaction, and returns exactly those:
     * their unread counts move and {@code event} is announced to their people before the commit
     * (with the rows locked, which keeps a concurrent rebuild exact), and the inboxes are queued
     * for trimming once it commits.
     */
    public List<InboxRow> deliver(List<InboxRow> rows, TransactionStatus status, InboxEvent event) {
        List<InboxRow> inserted = entries(table.deliver(rows, status));
        if (inserted.isEmpty()) {
            return inserted;
        }
        xmpp.delivered(inserted);
        List<Long> people = inserted.stream().map(InboxRow::userId).distinct().toList();
        counters.apply(inserted.stream().filter(row -> !row.read()).map(row -> UnreadDelta.of(row, 1)).toList(), event, people);
        tx.afterCommit(() -> trimQueue.add(people));
        return inserted;
    }

    /**
     * As {@link #deliver}, for fan-out: each person is told of exactly the items that reached
     * them ({@code item <id>} each), so one batch may carry several items to a page of people.
     * With {@code moreToCome} (a fan-out batch that is not its task's last) the people's page
     * stamps move after the commit on this node's mover thread, not the caller's: see
     * {@link #deliveriesSettled}.
     */
    public List<InboxRow> deliverItems(List<InboxRow> rows, TransactionStatus status, boolean moreToCome) {
        long countHorizon = horizon.forBatch();
        return moved(entries(table.deliver(rows, status)), countHorizon, moreToCome);
    }

    /**
     * The new entries of a delivery. Its copies of stories already held count nowhere and announce
     * nothing; the entries they joined show them ({@code also_in}, per person), so those people's kept pages are void.
     */
    private List<InboxRow> entries(InboxTable.Delivered delivered) {
        if (!delivered.copies().isEmpty()) {
            stamps.peopleChanged(delivered.copies().stream().map(AlsoRow::userId).distinct().toList());
        }
        return delivered.entries();
    }

    /**
     * As {@link #deliverItems}, for a caller that owns its transaction and expects every row to be
     * new (a fan-out batch): no savepoint. If a row was there already it throws {@link Conflict}
     * before anything moved in Redis; the caller rolls back and calls {@link #deliverItems}.
     */
    public List<InboxRow> deliverNewItems(List<InboxRow> rows, boolean moreToCome) {
        long countHorizon = horizon.forBatch();
        table.insertNew(rows);
        return moved(rows, countHorizon, moreToCome);
    }

    /**
     * Waits until the kept pages of everyone whom fan-out batches committed on this node before now
     * reached are void (their stamps move off the workers' threads), at most {@code timeout}: a
     * fan-out task waits before its last batch. False if they were not by then.
     */
    public boolean deliveriesSettled(Duration timeout) {
        return stamps.deliveriesSettled(timeout);
    }

    /** Some rows of a batch expected new were in their inboxes already; nothing of it may commit. */
    public static final class Conflict extends RuntimeException {
        Conflict(int rows) {
            super("some of " + rows + " inbox rows were there already", null, false, false);
        }
    }

    /**
     * A batch's new entries: counters move only for items at or below {@code countHorizon}, read
     * with its shared lock before the batch wrote a row (see {@link CountHorizon}).
     */
    private List<InboxRow> moved(List<InboxRow> inserted, long countHorizon, boolean moreToCome) {
        if (inserted.isEmpty()) {
            return inserted;
        }
        // In the batch's transaction: the notification exists exactly when the entry does.
        xmpp.delivered(inserted);
        Map<Long, List<String>> announcements = new LinkedHashMap<>();
        // A batch carries a few items to many people: each item's announcement is written once.
        Map<Long, String> events = new HashMap<>();
        for (InboxRow row : inserted) {
            announcements.computeIfAbsent(row.userId(), user -> new ArrayList<>(1))
                    .add(events.computeIfAbsent(row.itemId(), item -> new InboxEvent(InboxEvent.Type.ITEM, item).encode()));
        }
        counters.delivered(inserted, countHorizon, announcements, moreToCome);
        List<Long> people = List.copyOf(announcements.keySet());
        tx.afterCommit(() -> trimQueue.add(people));
        return inserted;
    }

    /**
     * These people have a live stream open: they are announced to for {@code ttl} (see
     * {@link dev.tributary.pubsub.HomeFeed#listening}). One Redis round trip.
     */
    public void listening(Collection<Long> people, Duration ttl) {
        counters.listening(people, ttl);
    }

    /**
     * Removes up to {@code limit} entries and copies of a tombstoned item, of people after
     * {@code afterUser}, inside the caller's transaction; their counts move and the deletion is
     * announced. Where the entry stood for other copies of its story, the oldest of them takes
     * over (same read flag, counted under its own source and media type), so the story stays once.
     * Returns the rows removed (entries and copies alike, by person): fewer than {@code limit}
     * means none are left after the last.
     */
    public List<InboxRow> retract(long itemId, long afterUser, int limit) {
        // Copies first: a copy of this item that another retraction promotes meanwhile is then either
        // locked here (and the promotion waits, then finds it gone) or already an entry, read next.
        List<AlsoRow> copies = table.lockCopiesOfItem(itemId, afterUser, limit);
        List<InboxRow> rows = table.lockRowsOfItem(itemId, afterUser, limit);
        // The two reads cover people up to the last of a full one: stop there, so the next batch misses nobody.
        long through = Long.MAX_VALUE;
        if (rows.size() >= limit) {
            through = rows.getLast().userId();
        }
        if (copies.size() >= limit) {
            through = Math.min(through, copies.getLast().userId());
        }
        long last = through;
        rows = rows.stream().filter(row -> row.userId() <= last).toList();
        copies = copies.stream().filter(copy -> copy.userId() <= last).toList();
        table.deleteEntries(rows);
        table.deleteCopies(copies);
        List<InboxRow> promoted = promote(itemId, rows);
        List<UnreadDelta> deltas = new ArrayList<>();
        Map<Long, List<String>> announcements = new LinkedHashMap<>();
        String deleted = new InboxEvent(InboxEvent.Type.DELETE, itemId).encode();
        rows.forEach(row -> announcements.computeIfAbsent(row.userId(), user -> new ArrayList<>(2)).add(deleted));
        rows.stream().filter(row -> !row.read()).forEach(row -> deltas.add(UnreadDelta.of(row, -1)));
        for (InboxRow row : promoted) {
            announcements.get(row.userId()).add(new InboxEvent(InboxEvent.Type.ITEM, row.itemId()).encode());
            if (!row.read()) {
                deltas.add(UnreadDelta.of(row, 1));
            }
        }
        if (!announcements.isEmpty()) {
            counters.apply(deltas, Map.of(), announcements);
        }
        if (!copies.isEmpty()) {
            stamps.peopleChanged(copies.stream().map(AlsoRow::userId).distinct().toList());
        }
        List<InboxRow> removed = new ArrayList<>(rows);
        copies.forEach(copy -> removed.add(new InboxRow(copy.userId(), copy.itemId(), copy.sourceId(), copy.media(), true)));
        removed.sort(java.util.Comparator.comparingLong(InboxRow::userId));
        return removed;
    }

    /**
     * For each retracted entry that stood for copies, its oldest copy becomes the entry (the
     * retracted one's slot for the story was freed in this transaction) and the others its copies.
     */
    private List<InboxRow> promote(long itemId, List<InboxRow> retracted) {
        Map<Long, InboxRow> byUser = new LinkedHashMap<>();
        retracted.stream().filter(row -> row.story() != null).forEach(row -> byUser.put(row.userId(), row));
        Map<Long, AlsoRow> heirs = new LinkedHashMap<>();
        for (AlsoRow copy : table.lockCopiesOfLead(itemId, byUser.keySet())) {
            heirs.putIfAbsent(copy.userId(), copy);
        }
        if (heirs.isEmpty()) {
            return List.of();
        }
        List<InboxRow> promoted = heirs.values().stream().map(heir -> {
            InboxRow was = byUser.get(heir.userId());
            return new InboxRow(heir.userId(), heir.itemId(), heir.sourceId(), heir.media(), was.read(), was.story());
        }).toList();
        table.deleteCopies(heirs.values());
        table.insertPromoted(promoted);
        heirs.values().forEach(heir -> table.repoint(heir.userId(), itemId, heir.itemId()));
        return promoted;
    }

    /** Up to {@code limit} people after {@code afterUser} whose inbox holds the item (a plain read). */
    public List<Long> recipientsAfter(long itemId, long afterUser, int limit) {
        return table.recipientsAfter(itemId, afterUser, limit);
    }

    /** Drops these people's counters, to be rebuilt exactly on their next read (a batch that may have died half-way). */
    public void invalidateCounters(Collection<Long> people) {
        counters.invalidate(people);
    }

    /** Voids every kept page that shows these items, once the caller's transaction commits. */
    public void itemsChanged(Collection<Long> itemIds) {
        stamps.itemsChanged(itemIds);
    }

    /**
     * Something the person's pages show about them changed outside the inbox (their stars): their
     * kept pages are void once the caller's transaction commits.
     */
    public void personChanged(long userId) {
        stamps.peopleChanged(List.of(userId));
    }

    /** One page of the bounded home timeline, newest first. */
    public List<TimelineEntry> page(long userId, TimelineQuery query) {
        return pages.page(userId, query);
    }

    /**
     * The entries of {@link #page}, as ids and read flags, in one statement and not hydrated: for a
     * caller that hydrates them together with other items. Tombstoned items are still among them
     * (the caller finds them missing when it hydrates). Not for tag pages: only items know their tags.
     */
    public List<Entry> entries(long userId, TimelineQuery query) {
        return pages.entries(userId, query);
    }

    /** An inbox entry's item and whether the person has read it. */
    public record Entry(long itemId, boolean read) {
    }

    /**
     * The stamps a kept page of these items is checked against, one Redis round trip while this
     * node knows the person's pulled sources ({@code pulledSources} reads them from MySQL when it
     * does not): their stamps are folded into the person's (a pulled publish voids their kept
     * pages too), and {@code stories.get(i)}'s stamp (null: none) into item {@code i}'s (a share
     * voids it).
     */
    public TimelineStamps stamps(long userId, List<Long> itemIds, LongFunction<List<Long>> pulledSources, List<@Nullable Long> stories) {
        return stamps.read(userId, itemIds, pulledSources, stories);
    }

    /**
     * The pulled sources the person follows, one Redis round trip while this node's list of them
     * holds ({@code pulledSources} reads them from MySQL when it does not); with {@code stamped},
     * the same round trip also reads the sources' stamps (as {@link #sourceStamps} gives them).
     */
    public KnownPulled pulledSources(long userId, LongFunction<List<Long>> pulledSources, boolean stamped) {
        return stamps.pulledSources(userId, pulledSources, stamped);
    }

    /**
     * The person's pulled sources, and their stamps where read with them (empty when the list came
     * from MySQL); {@code version}, when the list was this node's kept one, is what it was checked
     * against (the epoch, the stamp of the person's pulled follows, the pulled generation), read
     * before any MySQL read that follows: it moves after every change to the person's pulled
     * follows, their media filters, read positions and marks on single pulled items included.
     */
    public record KnownPulled(List<Long> sourceIds, Map<Long, String> stamps, @Nullable String version) {
    }

    /**
     * The person's pulled follows changed (followed, unfollowed, media filter, read position, a mark
     * on a single pulled item): lists of them kept on every node are void once the caller commits.
     */
    public void pulledFollowsChanged(long userId) {
        stamps.followsChanged(userId);
    }

    /** A source was pulled for the first time: every node's kept lists of pulled sources are void once the caller commits. */
    public void pulledSourcesChanged() {
        stamps.pulledSourcesChanged();
    }

    /** These pulled sources' stamps (one Redis round trip): what a node keeps of them holds while they are unchanged. */
    public List<String> sourceStamps(List<Long> sourceIds) {
        return stamps.sources(sourceIds);
    }

    /** Voids every kept page of these pulled sources' followers, once the caller's transaction commits. */
    public void sourcesChanged(Collection<Long> sourceIds) {
        stamps.sourcesChanged(sourceIds);
    }

    /**
     * The version of the person's unread counts with their folders, as a node may keep them: one
     * Redis round trip; null when this node keeps no current list of their pulled sources (read
     * the counts instead). See {@code PageStamps.countsVersion} for why it holds.
     */
    public @Nullable String countsVersion(long userId) {
        return stamps.countsVersion(userId);
    }

    /**
     * The Redis keys whose values make {@link #countsVersion}, for a caller that reads them in a
     * round trip it makes anyway; empty when there are none to read (call {@link #countsVersion}).
     */
    public List<String> countsVersionKeys(long userId) {
        return stamps.countsVersionKeys(userId);
    }

    /** {@link #countsVersion} from {@link #countsVersionKeys}' values, read in that order; null if they no longer apply. */
    public @Nullable String countsVersion(long userId, List<String> keys, List<@Nullable String> values) {
        return stamps.countsVersion(userId, keys, values);
    }

    /**
     * {@link #countsVersion} of many people in one round trip, for counts read for them all at
     * once (a live streams' batch); a person it cannot vouch for without drawing a stamp is absent.
     */
    public Map<Long, String> countsVersions(Collection<Long> people) {
        return stamps.countsVersions(people, false);
    }

    /** The ids of the person's newest {@code count} entries, newest first (the window's rows). */
    public List<Long> newestIds(long userId, int count) {
        return pages.newestIds(userId, count);
    }


    /** Voids every kept rendering of the items of these stories (their sharers changed), once the caller's transaction commits. */
    public void storiesChanged(Collection<Long> stories) {
        stamps.storiesChanged(stories);
    }

    /**
     * The person's counts and pulled sources together, and the stamp of their folders (for
     * {@link #folders}): one Redis round trip while this node keeps their list of pulled sources
     * ({@code pulledSources} reads them from MySQL when it does not). The sources are null if
     * Redis could not say while the counts could.
     */
    public UnreadAndPulled unreadAndPulledSources(long userId, LongFunction<List<Long>> pulledSources) {
        return unreadAndPulledSources(List.of(userId), pulledSources).get(userId);
    }

    /**
     * {@link #unreadAndPulledSources(long, LongFunction)} of many people in one round trip, by
     * person; a second one reads the hashes of those whose counts the node kept ({@link KeptUnread})
     * and whose stamp has moved since.
     */
    public Map<Long, UnreadAndPulled> unreadAndPulledSources(Collection<Long> people, LongFunction<List<Long>> pulledSources) {
        Map<Long, List<String>> keys = new HashMap<>();
        Set<Long> kept = new HashSet<>();
        for (long person : people) {
            // Folders, the inbox's stamp, then the epoch: alone, or first of the list of pulled sources' keys where this node keeps one.
            List<String> theirs = new ArrayList<>(List.of(PageStamps.foldersKey(person), PageStamps.personKey(person)));
            List<String> list = stamps.keptListKeys(person);
            theirs.addAll(list.isEmpty() ? List.of(PageStamps.epochKey()) : list);
            keys.put(person, theirs);
            if (keptUnread.holds(person)) {
                kept.add(person);
            }
        }
        Map<Long, UnreadCounters.Read> reads = counters.readWith(keys, kept);
        Map<Long, Unread> counts = new HashMap<>();
        Set<Long> moved = new HashSet<>();
        kept.forEach(person -> {
            List<@Nullable String> values = reads.get(person).values();
            Unread unread = keptUnread.at(person, values.get(2), values.get(1));
            if (unread != null) {
                counts.put(person, unread);
            } else {
                moved.add(person);
            }
        });
        Map<Long, UnreadCounters.Read> hashes = moved.isEmpty() ? Map.of() : counters.readWith(noKeys(moved), Set.of());
        Map<Long, @Nullable Map<Object, Object>> toCount = new HashMap<>();
        Map<Long, InboxVersion> versions = new HashMap<>();
        reads.forEach((person, read) -> {
            if (!counts.containsKey(person)) {
                toCount.put(person, read.hash() != null ? read.hash() : hashes.get(person).hash());
                versions.put(person, version(person, read.values()));
            }
        });
        Map<Long, Unread> counted = counters.readAll(toCount, keptUnread.keeping() ? keys(versions) : Map.of());
        Map<Long, UnreadAndPulled> answers = new HashMap<>();
        reads.forEach((person, read) -> {
            List<@Nullable String> values = read.values();
            String stamp = values.get(1);
            Unread unread = counts.get(person);
            if (unread == null) {
                unread = counted.get(person);
                InboxVersion version = versions.get(person);
                keptUnread.keep(person, version.epoch(), version.stamp(), unread);
            }
            List<@Nullable String> heads = values.size() > 3 ? values.subList(2, values.size()) : List.of();
            KnownPulled pulled = keptOrNull(() -> stamps.pulledSources(person, pulledSources, heads));
            String own = pulled == null || pulled.version() == null || stamp == null ? null : pulled.version() + "/" + stamp;
            answers.put(person, new UnreadAndPulled(unread, pulled, values.getFirst(), own));
        });
        return answers;
    }

    /**
     * The person's folders and their sources, kept on this node under {@code stamp} (as
     * {@link #unreadAndPulledSources} read it); {@code load} reads them from MySQL when the stamp moved.
     */
    public Map<Long, Set<Long>> folders(long userId, @Nullable String stamp, LongFunction<Map<Long, Set<Long>>> load) {
        return stamps.folders(userId, stamp, load);
    }

    /** The person's folders changed: maps of them kept on every node are void once the caller commits. */
    public void foldersChanged(long userId) {
        stamps.foldersChanged(userId);
    }

    /**
     * The version of a person's inbox that counts are kept under: the epoch and their stamp as
     * {@link #unreadAndPulledSources} read them ({@code values} 2 and 1), each drawn now if it was
     * missing, before anything is counted, so every later change voids what is kept under it (on
     * this node, and in the person's counters as their {@code _s}).
     */
    private InboxVersion version(long person, List<@Nullable String> values) {
        return new InboxVersion(stamps.epoch(values.get(2)), stamps.personStamp(person, values.get(1)));
    }

    /** The versions that are known, as one string each. */
    private static Map<Long, String> keys(Map<Long, InboxVersion> versions) {
        Map<Long, String> keys = new HashMap<>();
        versions.forEach((person, version) -> {
            if (version.epoch() != null && version.stamp() != null) {
                keys.put(person, version.epoch() + "/" + version.stamp());
            }
        });
        return keys;
    }

    /** The epoch and a person's page stamp; either null if Redis lost it at once. */
    private record InboxVersion(@Nullable String epoch, @Nullable String stamp) {
    }

    private static Map<Long, List<String>> noKeys(Set<Long> people) {
        Map<Long, List<String>> none = new HashMap<>();
        people.forEach(person -> none.put(person, List.of()));
        return none;
    }

    private static @Nullable KnownPulled keptOrNull(java.util.function.Supplier<KnownPulled> read) {
        try {
            return read.get();
        } catch (DataAccessException e) {
            RedisFailures.rethrowUnlessRedis(e);
            return null;
        }
    }

    /**
     * A person's counts, and their pulled sources where known (see {@link #unreadAndPulledSources});
     * {@code own}: the version of their pulled follows (with read positions and marks) and of
     * their inbox, read before anything counted, which every change to either moves after it
     * commits (null: the node keeps no current list of their pulled sources, or their inbox has
     * no stamp yet).
     */
    public record UnreadAndPulled(Unread unread, @Nullable KnownPulled pulled, @Nullable String foldersStamp, @Nullable String own) {
    }

    /** Sets one entry's read flag; false if it is not in the person's inbox or already was so. */
    public boolean setRead(long userId, long itemId, boolean read) {
        return marks.set(userId, table.leadsOf(userId, List.of(itemId)).getOrDefault(itemId, itemId), read);
    }

    /** Marks read every entry up to and including {@code upToItemId}, of one source or all; how many changed. */
    public int markReadUpTo(long userId, long upToItemId, @Nullable Long sourceId) {
        return markReadUpTo(userId, upToItemId, sourceId, id -> { });
    }

    /** {@link #markReadUpTo(long, long, Long)}, telling {@code marked} the item id of each entry it marked. */
    public int markReadUpTo(long userId, long upToItemId, @Nullable Long sourceId, LongConsumer marked) {
        int count = marks.markReadUpTo(userId, upToItemId, sourceId, marked);
        if (sourceId == null) {
            return count;
        }
        // The source's copies of stories whose entry came through another source: the entry is the story's one mark.
        List<Long> leads = table.leadsOfCopiesFrom(userId, sourceId, upToItemId);
        return leads.isEmpty() ? count : count + marks.setAll(userId, leads, true, marked);
    }

    /**
     * A person stopped following a source, inside the unsubscribing transaction: the source's
     * unread entries leave the unread horizon (marked read, so they stay in the timeline as
     * history) and counts equal what can be listed unread. Copies of its stories held under
     * another source's entry are left alone: that entry is still followed. How many were marked.
     */
    public int unfollowed(long userId, long sourceId) {
        return marks.markReadUpTo(userId, Long.MAX_VALUE, sourceId);
    }

    /** Sets the read flag of those of these entries that are in the person's inbox; how many changed. */
    public int setRead(long userId, Collection<Long> itemIds, boolean read) {
        return itemIds.isEmpty() ? 0 : marks.setAll(userId, asEntries(userId, itemIds), read);
    }

    /** These items with each copy of a story replaced by the person's entry of it: the one that holds the read flag. */
    private Set<Long> asEntries(long userId, Collection<Long> itemIds) {
        Map<Long, Long> leads = table.leadsOf(userId, itemIds);
        Set<Long> entries = new java.util.LinkedHashSet<>(itemIds.size());
        itemIds.forEach(id -> entries.add(leads.getOrDefault(id, id)));
        return entries;
    }

    /**
     * The other sources each of these entries of the person came through (their copies, oldest
     * first); entries without copies are absent. One query.
     */
    public Map<Long, List<Long>> alsoIn(long userId, Collection<Long> itemIds) {
        return alsoIn(List.of(userId), itemIds).getOrDefault(userId, Map.of());
    }

    /** {@link #alsoIn(long, Collection)} of many people at once, by person; one query for all. */
    public Map<Long, Map<Long, List<Long>>> alsoIn(Collection<Long> people, Collection<Long> itemIds) {
        Map<Long, Map<Long, List<Long>>> sources = new HashMap<>();
        if (people.isEmpty() || itemIds.isEmpty()) {
            return sources;
        }
        for (AlsoRow copy : table.copiesOf(people, itemIds)) {
            List<Long> of = sources.computeIfAbsent(copy.userId(), user -> new LinkedHashMap<>())
                    .computeIfAbsent(copy.leadItemId(), lead -> new ArrayList<>(2));
            if (!of.contains(copy.sourceId())) {
                of.add(copy.sourceId());
            }
        }
        return sources;
    }

    /** The ids a scan selects. */
    public List<Long> ids(long userId, InboxScan scan) {
        return table.ids(userId, scan);
    }

    /** Whether the item is in the person's inbox (read or not). */
    public boolean holds(long userId, long itemId) {
        return !heldAmong(userId, List.of(itemId)).isEmpty();
    }

    /**
     * Of these items, those in the person's inbox (as an entry or a copy of one) and their read
     * flags (a copy's is its entry's); two queries.
     */
    public Map<Long, Boolean> readStates(long userId, Collection<Long> itemIds) {
        return readStates(List.of(userId), itemIds).getOrDefault(userId, Map.of());
    }

    /** {@link #readStates(long, Collection)} of many people at once, by person (each of them present); two queries for all. */
    public Map<Long, Map<Long, Boolean>> readStates(Collection<Long> people, Collection<Long> itemIds) {
        Map<Long, Map<Long, Boolean>> result = new HashMap<>();
        if (itemIds.isEmpty() || people.isEmpty()) {
            people.forEach(person -> result.put(person, Map.of()));
            return result;
        }
        Map<Long, Map<Long, Long>> leads = table.leadsOf(people, itemIds);
        Set<Long> entries = new java.util.LinkedHashSet<>(itemIds);
        leads.values().forEach(theirs -> entries.addAll(theirs.values()));
        Map<Long, Map<Long, Boolean>> states = table.readStates(people, entries);
        Set<Long> asked = Set.copyOf(itemIds);
        for (long person : people) {
            Map<Long, Boolean> theirs = states.getOrDefault(person, Map.of());
            Map<Long, Boolean> answer = new HashMap<>(theirs);
            leads.getOrDefault(person, Map.of()).forEach((copy, lead) -> {
                Boolean read = theirs.get(lead);
                if (read != null) {
                    answer.put(copy, read);
                }
            });
            answer.keySet().retainAll(asked);
            result.put(person, answer);
        }
        return result;
    }

    /** Which of these items are in the person's inbox, as an entry or a copy of one. */
    public Set<Long> heldAmong(long userId, Collection<Long> itemIds) {
        return readStates(userId, itemIds).keySet();
    }

    /** Which of these items the person has read (a copy is read when its entry is). */
    public Set<Long> readAmong(long userId, Collection<Long> itemIds) {
        Set<Long> read = new java.util.HashSet<>();
        readStates(userId, itemIds).forEach((id, isRead) -> {
            if (isRead) {
                read.add(id);
            }
        });
        return read;
    }

    /** A page over the whole inbox by item id: after {@code sinceId} oldest first, else before {@code maxId} newest first. */
    public List<TimelineEntry> horizon(long userId, @Nullable Long sinceId, @Nullable Long maxId, int limit) {
        return pages.horizon(userId, sinceId, maxId, limit);
    }

    /** The person's entries among these items, newest first. */
    public List<TimelineEntry> among(long userId, Collection<Long> itemIds) {
        return pages.among(userId, itemIds);
    }

    /** Up to {@code limit} unread item ids, newest first. */
    public List<Long> unreadIds(long userId, int limit) {
        return table.unreadIds(userId, limit);
    }

    /** Entries in the person's inbox, read or not. */
    public int size(long userId) {
        return table.count(userId);
    }
}
