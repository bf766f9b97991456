package dev.tributary.pubsub.pull;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.Switches;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxSettings;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.TimelineSettings;
import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.UnreadTally;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.inbox.InboxRow;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.InboxScan;
import org.springframework.data.redis.core.StringRedisTemplate;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The pulled half of a person's home feed: the items of the pulled sources they follow, read at
 * timeline time and merged with their inbox, their read state (a position per source and the
 * exceptions to it) and its unread counts. A person who follows no pulled source costs one
 * indexed join per call.
 */
@Component
public class PulledFeed {

    /** Rounds a pulled read may take to refill what the tag filter and tombstones removed. */
    private static final int MAX_ROUNDS = 8;
    private static final int TAG_CHUNK = 200;
    /** A person's marks on single pulled items a node keeps with their follows; past it their pages probe the marks. */
    static final int MAX_KEPT_MARKS = 256;

    private final PulledTable table;
    private final Inbox inbox;
    private final Items items;
    private final Transactions tx;
    private final TimelineSettings timeline;
    private final InboxSettings horizon;
    private final FanoutSettings fanout;
    private final Clock clock;
    private final StringRedisTemplate redis;
    private final SourceHeads heads;
    /** People's pulled follows kept on this node (an hour at most, as the kept lists they go with). */
    private final PulledCounts keptCounts;
    /** {@link Feature#PAGE_CACHE} off: nothing kept, counts read whole. */
    private final Switches switches;
    private final Cache<Long, KeptFollows> keptFollows = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterWrite(Duration.ofHours(1)).build();

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(PulledFeed.class);

    PulledFeed(PulledTable table, Inbox inbox, Items items, Transactions tx, TimelineSettings timeline, InboxSettings horizon,
            FanoutSettings fanout, StringRedisTemplate redis, SourceHeads heads, Switches switches, ObjectProvider<Clock> clock,
            ObjectProvider<MeterRegistry> registries) {
        this.switches = switches;
        this.redis = redis;
        this.heads = heads;
        this.table = table;
        this.keptCounts = new PulledCounts(table, PulledCounts.MAX_RANGES, registries.getIfAvailable(SimpleMeterRegistry::new));
        this.inbox = inbox;
        this.items = items;
        this.tx = tx;
        this.timeline = timeline;
        this.horizon = horizon;
        this.fanout = fanout;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Publishing stores these items of the source pulled, inside the caller's transaction (which
     * holds the source's row); the audience they must still be fanned out to (the people past
     * their cap of pulled sources), if any.
     */
    public Optional<Long> published(long sourceId, Map<Long, MediaType> created) {
        table.add(sourceId, created);
        inbox.sourcesChanged(List.of(sourceId));
        List<Long> ids = List.copyOf(created.keySet());
        tx.afterCommit(() -> announce(sourceId, ids.stream().map(id -> new InboxEvent(InboxEvent.Type.ITEM, id)).toList()));
        return table.hasPushedPairs(sourceId) ? Optional.of(PulledTable.pushedAudience(sourceId)) : Optional.empty();
    }

    /** A tombstone of the item, inside the caller's transaction: it leaves every follower's timeline and counts at once. */
    public void tombstoned(long sourceId, long itemId) {
        if (table.remove(sourceId, itemId)) {
            inbox.sourcesChanged(List.of(sourceId));
            tx.afterCommit(() -> announce(sourceId, List.of(new InboxEvent(InboxEvent.Type.DELETE, itemId))));
        }
    }

    /**
     * Of a back-fill's rows, those to push: not the pulled items, which a follower reads at
     * timeline time, unless the person's pair with the source is pushed (past their cap).
     */
    public List<InboxRow> toPush(List<InboxRow> rows) {
        Set<Long> pulledIds = table.pulledAmong(rows.stream().map(row -> new long[] {row.sourceId(), row.itemId()}).toList());
        if (pulledIds.isEmpty()) {
            return rows;
        }
        Map<List<Long>, Boolean> pushedPairs = new HashMap<>();
        return rows.stream().filter(row -> !pulledIds.contains(row.itemId()) || pushedPairs.computeIfAbsent(
                List.of(row.userId(), row.sourceId()), pair -> table.isPushedPair(pair.get(0), pair.get(1)))).toList();
    }

    /**
     * Rows a relay (or a pushed pair) is about to push, inside its transaction, with those whose item
     * is pulled and which their person has already read as a pulled entry turned read: reaching
     * the inbox must not make a read item unread again. One statement when none of the items is
     * pulled (the common case), one more per pulled source among them.
     */
    public List<InboxRow> keepingPulledReads(List<InboxRow> rows) {
        Map<Long, Long> sourceOf = new HashMap<>();
        rows.forEach(row -> sourceOf.putIfAbsent(row.itemId(), row.sourceId()));
        Set<Long> pulledIds = table.pulledAmong(sourceOf.entrySet().stream().map(e -> new long[] {e.getValue(), e.getKey()}).toList());
        if (pulledIds.isEmpty()) {
            return rows;
        }
        Map<Long, List<Long>> pulledBySource = new HashMap<>();
        pulledIds.forEach(id -> pulledBySource.computeIfAbsent(sourceOf.get(id), source -> new ArrayList<>()).add(id));
        Set<Long> people = new LinkedHashSet<>();
        rows.forEach(row -> people.add(row.userId()));
        Set<List<Long>> read = new HashSet<>();
        pulledBySource.forEach((source, ids) -> read.addAll(table.readAsPulled(source, ids, people)));
        if (read.isEmpty()) {
            return rows;
        }
        return rows.stream().map(row -> row.read() || !read.contains(List.of(row.userId(), row.itemId())) ? row
                : new InboxRow(row.userId(), row.itemId(), row.sourceId(), row.media(), true, row.story())).toList();
    }

    /**
     * The person began following a source that has pulled items, inside the subscribing
     * transaction (which holds the source's row, so no pulled publish runs meanwhile): they see
     * its newest {@code tributary.fanout.backfill} pulled items and everything after.
     */
    public void followed(long userId, long sourceId, int mask) {
        sourcesChanged(userId);
        long others = table.follows(userId).stream().filter(follow -> follow.sourceId() != sourceId).count();
        if (others >= fanout.maxPulledSources()) {
            table.pushPair(userId, sourceId, mask);
            return;
        }
        long from = fanout.backfill() == 0
                ? table.newest(sourceId).map(id -> id + 1).orElse(0L)
                : table.nthNewest(sourceId, fanout.backfill()).orElse(0L);
        table.start(userId, sourceId, from);
    }

    /**
     * One PUBLISH per event on the source's channel, for every follower's open streams on every
     * node. After the commit, so a failure cannot undo it: a stream misses the event and shows the
     * item at its client's next poll.
     */
    private void announce(long sourceId, List<InboxEvent> events) {
        try {
            events.forEach(event -> redis.convertAndSend(InboxEvent.sourceChannel(sourceId), event.encode()));
        } catch (org.springframework.dao.DataAccessException e) {
            log.warn("Could not announce {} events of pulled source {}: {}", events.size(), sourceId, e.getMessage());
        }
    }

    /** The person no longer follows the source (inside the unsubscribing transaction). */
    public void unfollowed(long userId, long sourceId) {
        table.dropPair(userId, sourceId);
        sourcesChanged(userId);
    }

    /**
     * The person's pulled sources change (inside the caller's transaction): their kept lists and
     * pages are void, and their open streams are told to listen again once it commits.
     */
    private void sourcesChanged(long userId) {
        inbox.personChanged(userId);
        inbox.pulledFollowsChanged(userId);
        tx.afterCommit(() -> {
            try {
                redis.convertAndSend(InboxEvent.channel(userId), new InboxEvent(InboxEvent.Type.SOURCES, 0).encode());
            } catch (org.springframework.dao.DataAccessException e) {
                log.warn("Could not tell the streams of {} that their pulled sources changed: {}", userId, e.getMessage());
            }
        });
    }

    /** A follow's media filter changed (inside the subscribing transaction): a pushed pair's audience row follows it. */
    public void filterChanged(long userId, long sourceId, int mask) {
        if (table.isPushedPair(userId, sourceId)) {
            table.pushPair(userId, sourceId, mask);
        }
        inbox.pulledFollowsChanged(userId);
    }

    /** The pulled sources the person follows (their stamps fold into the person's page stamp). */
    public List<Long> sourcesOf(long userId) {
        return table.follows(userId).stream().map(PulledFollow::sourceId).toList();
    }

    /**
     * The person's pulled sources as this node keeps them (one Redis round trip; MySQL only after
     * their follows may have changed), so the common case, none, skips the pulled reads; with
     * {@code stamped}, the sources' stamps where the same round trip read them. Redis down: null,
     * and the caller reads MySQL.
     */
    private Inbox.@Nullable KnownPulled knownSources(long userId, boolean stamped) {
        try {
            return inbox.pulledSources(userId, this::sourcesOf, stamped);
        } catch (org.springframework.dao.DataAccessException e) {
            return null;
        }
    }

    /**
     * The person's pulled follows with their read state: by the known sources' keys when this node
     * knows them, and as kept on this node while the version of that list holds (read before the
     * MySQL read it keeps, and moved after every change to a follow, its filter, read position and marks).
     */
    private List<PulledFollow> follows(long userId, Inbox.@Nullable KnownPulled known) {
        return kept(userId, known).follows();
    }

    /**
     * {@link #follows(long, Inbox.KnownPulled)}, with the person's marks on single pulled items
     * where this node keeps them under the same version (which every mark moves too).
     */
    private KeptFollows kept(long userId, Inbox.@Nullable KnownPulled known) {
        if (known == null) {
            return new KeptFollows(null, table.follows(userId), null);
        }
        String version = known.version();
        KeptFollows kept = version == null ? null : keptFollows.getIfPresent(userId);
        if (kept != null && kept.version().equals(version)) {
            return kept;
        }
        if (version == null) {
            return new KeptFollows(null, table.follows(userId, known.sourceIds()), null);
        }
        KeptFollows read = new KeptFollows(version, table.follows(userId, known.sourceIds()), table.marks(userId, MAX_KEPT_MARKS));
        keptFollows.put(userId, read);
        return read;
    }

    /**
     * A person's pulled follows as read under a version of their kept list of pulled sources (null:
     * not kept), and their marks on single pulled items by item (null: not kept, e.g. too many).
     */
    private record KeptFollows(@Nullable String version, List<PulledFollow> follows, @Nullable Map<Long, Boolean> marks) {
    }

    /**
     * One page of the home timeline: the inbox's page merged with the pulled sources' items, exactly
     * as one timeline. The inbox's entries and the pulled items that make the page are hydrated
     * together, in one multi-get; a tombstoned inbox entry among them sends the page the long way
     * (the inbox's page hydrated first, tombstones skipped and refilled), which stays exact.
     */
    public List<TimelineEntry> page(long userId, TimelineQuery query) {
        Inbox.KnownPulled kept = knownSources(userId, true);
        List<Long> known = kept == null ? null : kept.sourceIds();
        if (known != null && known.isEmpty()) {
            return inbox.page(userId, query);
        }
        Map<Long, String> stamps = kept == null ? Map.of() : kept.stamps();
        KeptFollows keptFollows = kept(userId, kept);
        List<PulledFollow> all = keptFollows.follows();
        List<PulledFollow> follows = follows(all, query);
        if (follows.isEmpty()) {
            return inbox.page(userId, query);
        }
        boolean ascending = query.minId() != null && query.maxId() == null && query.sinceId() == null;
        long keep = keepFloor();
        long floor = 0;
        TimelineQuery inboxQuery = query;
        if (!query.readsHorizon() && !(query.readsFromTheTop() && query.tag() == null && query.limit() <= timeline.maxEntries())) {
            // The window is the newest max-entries of the merged timeline, not of the inbox alone.
            floor = windowFloor(userId, all, keep);
            if (floor > 0) {
                inboxQuery = ascending
                        ? withLowest(query, query.minId(), null, floor)
                        : withLowest(query, null, query.sinceId(), floor);
            }
        }
        Merge merge = new Merge(userId, query, follows, floor, keep, ascending, stamps, keptFollows.marks());
        if (query.tag() == null) {
            List<TimelineEntry> page = merge.page(inbox.entries(userId, inboxQuery), Map.of());
            if (page != null) {
                return page;
            }
        }
        List<TimelineEntry> fromInbox = inbox.page(userId, inboxQuery);
        Map<Long, TimelineEntry> hydrated = new HashMap<>();
        fromInbox.forEach(entry -> hydrated.put(entry.id(), entry));
        List<Inbox.Entry> entries = fromInbox.stream().map(entry -> new Inbox.Entry(entry.id(), entry.read())).toList();
        return java.util.Objects.requireNonNull(merge.page(entries, hydrated));
    }

    /**
     * The ids this node's heads of these pulled sources hold above {@code above}, newest first, at
     * most {@code limit}: what a kept page will likely gain, to read stamps for before {@link #newest}
     * is asked (it alone says what the page gains).
     */
    public List<Long> ahead(Collection<Long> sourceIds, long above, int limit) {
        return heads.ahead(sourceIds, above, limit);
    }

    /**
     * The newest {@code limit} entries the person's pulled sources give their newest page, newest
     * first, each read or not by its source's read position (marks on single items are not looked
     * at, nor whether the inbox holds the item): from this node's heads of those sources under
     * {@code stamps} (as {@link Inbox#stamps} read them), with no Redis or MySQL read while the
     * heads and the person's kept follows are current. Null when they cannot tell (the stamps were
     * read with no kept list of the sources, a head ends above what the page needs).
     */
    public @Nullable List<HomeFeed.PulledEntry> newest(long userId, int limit, TimelineStamps stamps) {
        if (stamps.pulledList() == null || stamps.sources().isEmpty()) {
            return null;
        }
        Inbox.KnownPulled known = new Inbox.KnownPulled(stamps.sources().keySet().stream().sorted().toList(), stamps.sources(),
                stamps.pulledList());
        TimelineQuery query = TimelineQuery.newest(limit);
        List<PulledFollow> follows = follows(follows(userId, known), query);
        Map<Long, SourceHeads.Head> current = heads.of(follows.stream().map(PulledFollow::sourceId).toList(), known.stamps());
        long keep = keepFloor();
        List<HomeFeed.PulledEntry> entries = new ArrayList<>();
        for (PulledFollow follow : follows) {
            SourceHeads.Head head = current.get(follow.sourceId());
            List<Long> served = head == null ? null
                    : head.serve(new PulledTable.Bounds(lowest(follow, keep), null, null, false), media(follow, query), limit);
            if (served == null) {
                return null;
            }
            served.forEach(id -> entries.add(new HomeFeed.PulledEntry(id, id <= follow.readUpto())));
        }
        entries.sort(Comparator.comparingLong(HomeFeed.PulledEntry::itemId).reversed());
        return List.copyOf(entries.subList(0, Math.min(limit, entries.size())));
    }

    /** One page's merge of the inbox's part with the pulled sources' items. */
    private final class Merge {
        private final long userId;
        private final TimelineQuery query;
        private final List<PulledFollow> follows;
        private final long floor;
        private final long keep;
        private final boolean ascending;
        private final Map<Long, String> stamps;
        private final @Nullable Map<Long, Boolean> marks;

        Merge(long userId, TimelineQuery query, List<PulledFollow> follows, long floor, long keep, boolean ascending,
                Map<Long, String> stamps, @Nullable Map<Long, Boolean> marks) {
            this.marks = marks;
            this.userId = userId;
            this.query = query;
            this.follows = follows;
            this.floor = floor;
            this.keep = keep;
            this.ascending = ascending;
            this.stamps = stamps;
        }

        /**
         * The page from the inbox's part of it ({@code hydrated}: those of its entries hydrated
         * already, tombstones skipped); null if an inbox entry that made the page turned out
         * tombstoned when hydrated here, so the caller reads the inbox's part the long way.
         */
        @Nullable List<TimelineEntry> page(List<Inbox.Entry> fromInbox, Map<Long, TimelineEntry> hydrated) {
            Long above = ascending ? query.minId() : query.sinceId() != null ? query.sinceId() : query.minId();
            Long below = query.maxId();
            long lowest = floor;
            if (query.tag() == null && fromInbox.size() >= query.limit()) {
                // A full inbox page bounds the merge: a pulled item beyond its last entry cannot make the page.
                LongSummaryStatistics span = fromInbox.stream().mapToLong(Inbox.Entry::itemId).summaryStatistics();
                if (ascending) {
                    below = below == null ? span.getMax() : Math.min(below, span.getMax());
                } else {
                    lowest = Math.max(lowest, span.getMin() + 1);
                }
            }
            List<PulledTable.Read> reads = new ArrayList<>(follows.size());
            for (PulledFollow follow : follows) {
                reads.add(new PulledTable.Read(follow, new PulledTable.Bounds(Math.max(lowest, lowest(follow, keep)), below, above,
                        ascending), media(follow, query)));
            }
            if (query.tag() != null) {
                List<TimelineEntry> merged = new ArrayList<>(hydrated.values());
                reads.forEach(one -> merged.addAll(read(userId, one.follow(), one.bounds(), one.media(), query)));
                List<TimelineEntry> page = ordered(merged, ascending, query.limit());
                return ascending ? page.reversed() : page;
            }
            // Ids first, cut to the page, and only the items that made it are hydrated.
            List<PulledTable.Row> rows = rows(userId, reads, query, ascending, stamps, marks);
            Map<Long, Boolean> read = new HashMap<>();
            Set<Long> inInbox = new HashSet<>();
            fromInbox.forEach(entry -> {
                read.put(entry.itemId(), entry.read());
                inInbox.add(entry.itemId());
            });
            rows.forEach(row -> read.putIfAbsent(row.itemId(), row.read()));
            List<Long> ids = new ArrayList<>(read.keySet());
            ids.sort(ascending ? Comparator.naturalOrder() : Comparator.reverseOrder());
            List<Long> cut = ids.subList(0, Math.min(query.limit(), ids.size()));
            Map<Long, TimelineEntry> byId = new HashMap<>(hydrated);
            for (Stored<Item> item : items.getAll(cut.stream().filter(id -> !byId.containsKey(id)).toList())) {
                byId.put(item.id(), new TimelineEntry(item, read.get(item.id())));
            }
            if (cut.stream().anyMatch(id -> inInbox.contains(id) && !byId.containsKey(id))) {
                return null;
            }
            List<TimelineEntry> page = cut.stream().map(byId::get).filter(java.util.Objects::nonNull).toList();
            return ascending ? page.reversed() : page;
        }
    }

    /**
     * The pulled rows of a page: from the candidates alone where no read filter applies, else with
     * each source's probes. Where the page reads the window (no source, folder or unread filter:
     * {@link TimelineQuery#readsHorizon()}) the inbox's part of the page holds every inbox entry
     * among the candidates' bounds, so the merge, where the inbox's entry wins, needs no probe of
     * the inbox; and with the person's marks kept ({@code marks}) no probe of the marks either.
     */
    private List<PulledTable.Row> rows(long userId, List<PulledTable.Read> reads, TimelineQuery query, boolean ascending,
            Map<Long, String> stamps, @Nullable Map<Long, Boolean> marks) {
        if (!query.unreadOnly()) {
            Map<Long, SourceHeads.Head> current = ascending ? Map.of()
                    : heads.of(reads.stream().map(read -> read.follow().sourceId()).toList(), stamps);
            PulledTable.Probing probing = query.readsHorizon() ? PulledTable.Probing.ALL
                    : marks == null ? PulledTable.Probing.MARKS : PulledTable.Probing.none(marks);
            Optional<List<PulledTable.Row>> rows = table.candidatesFirst(userId, reads, query.limit(), ascending, current, probing);
            if (rows.isPresent()) {
                return rows.get();
            }
        }
        return table.rowsOfAll(userId, reads, query.unreadOnly() ? Boolean.FALSE : null, query.limit(), ascending);
    }

    private List<TimelineEntry> read(long userId, PulledFollow follow, PulledTable.Bounds bounds, List<Integer> media,
            TimelineQuery query) {
        int chunk = query.tag() == null ? query.limit() : Math.max(query.limit(), TAG_CHUNK);
        List<TimelineEntry> entries = new ArrayList<>();
        PulledTable.Bounds next = bounds;
        for (int round = 0; round < MAX_ROUNDS && entries.size() < query.limit(); round++) {
            List<PulledTable.Row> rows = table.rows(userId, follow, next, media, query.unreadOnly(), chunk);
            entries.addAll(hydrate(rows, query.tag()));
            if (rows.size() < chunk) {
                break;
            }
            long last = rows.getLast().itemId();
            next = bounds.ascending()
                    ? new PulledTable.Bounds(next.lowest(), next.below(), last, true)
                    : new PulledTable.Bounds(next.lowest(), last, next.above(), false);
        }
        return entries;
    }

    private List<TimelineEntry> hydrate(List<PulledTable.Row> rows, @Nullable String tag) {
        Map<Long, Boolean> read = new HashMap<>();
        rows.forEach(row -> read.put(row.itemId(), row.read()));
        List<TimelineEntry> entries = new ArrayList<>(rows.size());
        for (Stored<Item> item : items.getAll(rows.stream().map(PulledTable.Row::itemId).toList())) {
            if (tag == null || item.body().tags().stream().anyMatch(tag::equalsIgnoreCase)) {
                entries.add(new TimelineEntry(item, read.get(item.id())));
            }
        }
        return entries;
    }

    /** The N-th newest id of the merged timeline (N = the window), 0 if it holds fewer: one statement. */
    private long windowFloor(long userId, List<PulledFollow> follows, long keep) {
        List<PulledTable.Read> reads = follows.stream().map(follow -> new PulledTable.Read(follow,
                new PulledTable.Bounds(lowest(follow, keep), null, null, false), allMedia(follow))).toList();
        return table.nthNewest(userId, reads, timeline.maxEntries()).orElse(0L);
    }

    private static TimelineQuery withLowest(TimelineQuery query, @Nullable Long minId, @Nullable Long sinceId, long floor) {
        Long lowest = floor - 1;
        return minId != null
                ? new TimelineQuery(query.maxId(), query.sinceId(), Math.max(minId, lowest), query.limit(), query.media(), query.tag(),
                        query.sourceId(), query.unreadOnly(), query.sourceIds())
                : new TimelineQuery(query.maxId(), sinceId == null ? lowest : Math.max(sinceId, lowest), query.minId(), query.limit(),
                        query.media(), query.tag(), query.sourceId(), query.unreadOnly(), query.sourceIds());
    }

    /** The person's follows of pulled sources that this query's source, folder and media filters let through. */
    private List<PulledFollow> follows(List<PulledFollow> all, TimelineQuery query) {
        return all.stream()
                .filter(follow -> query.sourceId() == null || query.sourceId() == follow.sourceId())
                .filter(follow -> query.sourceIds() == null || query.sourceIds().contains(follow.sourceId()))
                .filter(follow -> !media(follow, query).isEmpty())
                .toList();
    }

    private static List<Integer> media(PulledFollow follow, TimelineQuery query) {
        List<Integer> bits = new ArrayList<>();
        for (MediaType type : MediaType.values()) {
            if (follow.takes(type) && (query.media() == null || query.media().contains(type))) {
                bits.add(type.bit());
            }
        }
        return bits;
    }

    /**
     * Removes the pulled rows of items older than {@code tributary.inbox.keep}, which no read,
     * count or mark takes any more, and the read exceptions of such items: batches of
     * {@code batch} rows, each its own statement, reported to {@code removed} as they go; the total.
     */
    public long removeBeyondHorizon(int batch, java.util.function.LongConsumer removed) {
        long floor = keepFloor();
        long total = 0;
        List<Long> sources;
        long after = 0;
        do {
            sources = table.everPulled(after, 100);
            for (long sourceId : sources) {
                for (int gone = batch; gone == batch; ) {
                    gone = table.removeBelow(sourceId, floor, batch);
                    total += gone;
                    removed.accept(gone);
                }
            }
            after = sources.isEmpty() ? after : sources.getLast();
        } while (!sources.isEmpty());
        for (int gone = batch; gone == batch; ) {
            gone = table.removeMarksBelow(floor, batch);
            total += gone;
            removed.accept(gone);
        }
        return total;
    }

    /**
     * The person's exact unread counts: their inbox's ({@code pushed}) and their pulled sources'
     * (one statement; none when {@code kept}, the node's list of their pulled sources, is empty).
     */
    public Unread unread(long userId, Unread pushed, Inbox.@Nullable KnownPulled kept, @Nullable String own) {
        return counts(Map.of(userId, new Counted(pushed, kept, own))).get(userId).unread();
    }

    /**
     * A person's inbox counts, the node's list of their pulled sources (null: not known) and the
     * version of everything of theirs a pulled count depends on, read before it ({@link
     * Inbox.UnreadAndPulled#own}; null: none), for {@link #counts}.
     */
    public record Counted(Unread pushed, Inbox.@Nullable KnownPulled kept, @Nullable String own) {
    }

    /**
     * A person's exact counts, and {@code agesAt}: after that moment they change with no write,
     * because the oldest unread pulled item they count leaves the horizon ({@code
     * tributary.inbox.keep}) and stops being anyone's; null when they count no pulled item.
     */
    public record Counts(Unread unread, @Nullable Instant agesAt) {
    }

    /**
     * {@link #unread(long, Unread, Inbox.KnownPulled, String)} of many people, by person: for all who
     * follow a pulled source one statement (one per 256 kept sequence ranges; see {@link PulledCounts}).
     */
    public Map<Long, Counts> counts(Map<Long, Counted> people) {
        Map<Long, Counts> counts = new HashMap<>();
        List<Long> withPulled = new ArrayList<>();
        people.forEach((person, counted) -> {
            if (counted.kept() != null && counted.kept().sourceIds().isEmpty()) {
                counts.put(person, new Counts(counted.pushed(), null));
            } else {
                withPulled.add(person);
            }
        });
        boolean keep = switches.isOn(Feature.PAGE_CACHE);
        if (!keep) {
            keptCounts.clear();
        }
        Map<Long, PulledCounts.Known> known = new HashMap<>();
        withPulled.forEach(person -> {
            Counted counted = people.get(person);
            known.put(person, new PulledCounts.Known(counted.kept() == null ? null : counted.kept().sourceIds(),
                    keep ? counted.own() : null));
        });
        Instant now = clock.instant();
        Map<Long, List<PulledTable.UnreadGroup>> groups = withPulled.isEmpty() ? Map.of()
                : keptCounts.unread(known, IdGenerator.lowestIdAt(now.minus(horizon.keep())), oldest -> !now.isBefore(IdGenerator.timestampOf(oldest).plus(horizon.keep())));
        withPulled.forEach(person -> {
            List<PulledTable.UnreadGroup> theirs = groups.getOrDefault(person, List.of());
            OptionalLong oldest = theirs.stream().mapToLong(PulledTable.UnreadGroup::oldest).min();
            Instant agesAt = oldest.isPresent() ? IdGenerator.timestampOf(oldest.getAsLong()).plus(horizon.keep()) : null;
            counts.put(person, new Counts(plus(people.get(person).pushed(), theirs), agesAt));
        });
        return counts;
    }

    private static Unread plus(Unread pushed, List<PulledTable.UnreadGroup> groups) {
        if (groups.isEmpty()) {
            return pushed;
        }
        UnreadTally tally = new UnreadTally().addAll(pushed);
        groups.forEach(group -> tally.add(group.sourceId(), group.media(), group.count()));
        return tally.build(pushed.trimmedUnread());
    }

    /**
     * Sets a pulled item's read state for the person; false if it is not one of their pulled
     * entries (not pulled, not followed, before their start, filtered out, or in their inbox) or
     * already was so.
     */
    public boolean setRead(long userId, long itemId, boolean read) {
        Optional<Stored<Item>> item = items.find(itemId);
        if (item.isEmpty()) {
            return false;
        }
        return tx.write("mark pulled item " + itemId + " of " + userId, status -> set(userId, item.get().body().sourceId(), itemId, read));
    }

    /** {@link #setRead(long, long, boolean)} for several items, in one transaction; how many changed. */
    public int setRead(long userId, Collection<Long> itemIds, boolean read) {
        if (itemIds.isEmpty()) {
            return 0;
        }
        List<Stored<Item>> found = items.getAll(itemIds);
        return tx.write("mark " + found.size() + " pulled items of " + userId, status -> {
            int changed = 0;
            for (Stored<Item> item : found.stream().sorted(Comparator.comparingLong(Stored<Item>::id)).toList()) {
                changed += set(userId, item.body().sourceId(), item.id(), read) ? 1 : 0;
            }
            return changed;
        });
    }

    private boolean set(long userId, long sourceId, long itemId, boolean read) {
        // The item first: a pushed item (the common case, e.g. one marked read twice) costs one probe and no write.
        Optional<MediaType> media = table.lockedItem(sourceId, itemId);
        if (media.isEmpty()) {
            return false;
        }
        Optional<PulledFollow> follow = table.lockFollow(userId, sourceId);
        if (follow.isEmpty() || !follow.get().takes(media.get()) || itemId < Math.max(keepFloor(), follow.get().fromId())
                || inbox.holds(userId, itemId)) {
            return false;
        }
        boolean byPosition = itemId <= follow.get().readUpto();
        boolean now = table.mark(userId, sourceId, itemId).orElse(byPosition);
        if (now == read) {
            return false;
        }
        if (read == byPosition) {
            table.deleteMark(userId, sourceId, itemId);
        } else {
            table.putMark(userId, sourceId, itemId, read);
        }
        inbox.personChanged(userId);
        inbox.pulledFollowsChanged(userId); // the marks kept with the follows changed
        return true;
    }

    /** Marks read the person's pulled entries up to and including {@code upTo}, of one source or all; how many changed. */
    public int markReadUpTo(long userId, long upTo, @Nullable Long sourceId) {
        return markReadUpTo(userId, upTo, sourceId, null);
    }

    /**
     * {@link #markReadUpTo(long, long, Long)}, telling {@code marked} (if given) the item id of each
     * entry it marked, listed in the same transaction as the mark.
     */
    public int markReadUpTo(long userId, long upTo, @Nullable Long sourceId, java.util.function.@Nullable LongConsumer marked) {
        int changed = 0;
        for (PulledFollow follow : table.follows(userId)) {
            if (sourceId != null && sourceId != follow.sourceId()) {
                continue;
            }
            changed += tx.write("mark pulled source " + follow.sourceId() + " of " + userId + " read", status -> {
                Optional<PulledFollow> locked = table.lockFollow(userId, follow.sourceId());
                if (locked.isEmpty()) {
                    return 0;
                }
                long lowest = Math.max(keepFloor(), locked.get().fromId());
                int flipped;
                if (marked == null) {
                    flipped = (int) table.unreadUpTo(userId, locked.get(), lowest, upTo);
                } else {
                    List<Long> ids = table.unreadIdsUpTo(userId, locked.get(), lowest, upTo);
                    ids.forEach(marked::accept);
                    flipped = ids.size();
                }
                table.readUpTo(userId, follow.sourceId(), upTo);
                inbox.pulledFollowsChanged(userId); // the read position kept with the follows moved
                if (flipped > 0) {
                    inbox.personChanged(userId);
                }
                return flipped;
            });
        }
        return changed;
    }

    /**
     * Of these items (none of them in the person's inbox), the person's pulled entries and
     * whether each is read: one statement.
     */
    public Map<Long, Boolean> readStates(long userId, Collection<Long> itemIds) {
        return readStates(Map.of(userId, itemIds)).getOrDefault(userId, Map.of());
    }

    /**
     * {@link #readStates(long, Collection)} of many people, each of their own items, by person
     * (those with none absent): one statement for all of them.
     */
    public Map<Long, Map<Long, Boolean>> readStates(Map<Long, ? extends Collection<Long>> itemsByPerson) {
        Set<Long> all = new HashSet<>();
        itemsByPerson.values().forEach(all::addAll);
        if (all.isEmpty()) {
            return Map.of();
        }
        Set<Long> sources = new HashSet<>();
        items.getAll(all).forEach(item -> sources.add(item.body().sourceId()));
        Map<Long, Map<Long, Boolean>> states = table.readStates(itemsByPerson.keySet(), sources, all, keepFloor());
        // The statement crosses people with items: keep each person's own.
        states.forEach((person, theirs) -> theirs.keySet().retainAll(Set.copyOf(itemsByPerson.get(person))));
        return states;
    }

    /** The ids a scan selects among the person's inbox ids ({@code inboxIds}, the same scan's) and pulled entries, in its order. */
    public List<Long> ids(long userId, InboxScan scan, List<Long> inboxIds) {
        List<PulledFollow> follows = table.follows(userId).stream()
                .filter(follow -> scan.sourceIds() == null || scan.sourceIds().contains(follow.sourceId())).toList();
        if (follows.isEmpty()) {
            return inboxIds;
        }
        long keep = keepFloor();
        Boolean read = switch (scan.reads()) {
            case ANY -> null;
            case UNREAD -> Boolean.FALSE;
            case READ -> Boolean.TRUE;
        };
        List<Long> ids = new ArrayList<>(inboxIds);
        for (PulledFollow follow : follows) {
            long lowest = lowest(follow, keep);
            if (scan.newerThan() != null) {
                lowest = Math.max(lowest, IdGenerator.lowestIdAt(scan.newerThan()));
            }
            Long below = scan.olderThan() == null ? null : IdGenerator.lowestIdAt(scan.olderThan());
            Long above = null;
            if (scan.after() != null) {
                if (scan.oldestFirst()) {
                    above = scan.after();
                } else {
                    below = below == null ? scan.after() : Math.min(below, scan.after());
                }
            }
            table.rows(userId, follow, new PulledTable.Bounds(lowest, below, above, scan.oldestFirst()), allMedia(follow), read, null,
                    scan.limit()).forEach(row -> ids.add(row.itemId()));
        }
        return ids.stream().distinct().sorted(scan.oldestFirst() ? Comparator.naturalOrder() : Comparator.reverseOrder())
                .limit(scan.limit()).toList();
    }

    /**
     * A page over the whole horizon ({@link dev.tributary.pubsub.HomeFeed#inboxPage}): the
     * inbox's page ({@code inboxPart}, same bounds) merged with the person's pulled entries.
     */
    public List<TimelineEntry> horizon(long userId, @Nullable Long sinceId, @Nullable Long maxId, int limit,
            List<TimelineEntry> inboxPart) {
        List<PulledFollow> follows = table.follows(userId);
        if (follows.isEmpty()) {
            return inboxPart;
        }
        boolean ascending = sinceId != null;
        long keep = keepFloor();
        List<TimelineEntry> merged = new ArrayList<>(inboxPart);
        TimelineQuery any = TimelineQuery.newest(limit);
        for (PulledFollow follow : follows) {
            PulledTable.Bounds bounds = new PulledTable.Bounds(lowest(follow, keep), ascending ? null : maxId, sinceId, ascending);
            merged.addAll(read(userId, follow, bounds, allMedia(follow), any));
        }
        return ordered(merged, ascending, limit);
    }

    /** The person's entries among these items: the inbox's ({@code inboxPart}) and their pulled ones, newest first. */
    public List<TimelineEntry> among(long userId, Collection<Long> itemIds, List<TimelineEntry> inboxPart) {
        Set<Long> rest = new HashSet<>(itemIds);
        inboxPart.forEach(entry -> rest.remove(entry.id()));
        Map<Long, Boolean> states = readStates(userId, rest);
        if (states.isEmpty()) {
            return inboxPart;
        }
        List<TimelineEntry> merged = new ArrayList<>(inboxPart);
        for (Stored<Item> item : items.getAll(states.keySet())) {
            merged.add(new TimelineEntry(item, states.get(item.id())));
        }
        return ordered(merged, false, merged.size());
    }

    /** The newest {@code limit} unread ids: the inbox's ({@code inboxIds}, newest first) and the pulled ones. */
    public List<Long> unreadIds(long userId, int limit, List<Long> inboxIds) {
        return ids(userId, new InboxScan(InboxScan.Reads.UNREAD, null, null, null, null, false, limit), inboxIds);
    }

    /** How many pulled entries the person has, read or not. */
    public long size(long userId) {
        return table.count(userId, keepFloor());
    }

    private static List<TimelineEntry> ordered(List<TimelineEntry> merged, boolean ascending, int limit) {
        Map<Long, TimelineEntry> byId = new LinkedHashMap<>();
        merged.forEach(entry -> byId.putIfAbsent(entry.id(), entry));
        Comparator<TimelineEntry> order = Comparator.comparingLong(TimelineEntry::id);
        return byId.values().stream().sorted(ascending ? order : order.reversed()).limit(limit).toList();
    }

    private long lowest(PulledFollow follow, long keep) {
        return Math.max(keep, follow.fromId());
    }

    private static List<Integer> allMedia(PulledFollow follow) {
        return java.util.Arrays.stream(MediaType.values()).filter(follow::takes).map(MediaType::bit).toList();
    }

    /** The oldest item id the horizon still holds: pulled items older than {@code tributary.inbox.keep} are no one's. */
    private long keepFloor() {
        return IdGenerator.lowestIdAt(clock.instant().minus(horizon.keep()));
    }
}
