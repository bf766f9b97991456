package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.DeliveryRules;
import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.SourceKind;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.Subscription;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.inbox.InboxRow;
import dev.tributary.pubsub.pull.PulledFeed;
import dev.tributary.pubsub.pull.SourceAudiences;
import dev.tributary.storage.Transactions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * Gives a new subscriber the source's current items at once, unread and counted: for a feed, the
 * items its latest fetched document carried ({@link CurrentItems}), up to
 * {@code tributary.fanout.backfill}; for a person's or a group's source, its newest
 * {@link #OWNED_SOURCE_ITEMS}. A feed with no recorded document (never fetched since the record
 * began) gives its newest {@code backfill} items. Inserts are idempotent and leave an existing
 * inbox row (and its read flag) alone, so refollowing never makes read items unread again. The
 * person's filter rules are matched when the back-fill is {@link #prepare prepared}, before the
 * subscribing transaction, and only applied in it.
 */
@Component
public class SubscriptionBackfill {

    /** Items a new follower of a person or a group receives. */
    public static final int OWNED_SOURCE_ITEMS = 20;

    private final Items items;
    private final Sources sources;
    private final CurrentItems current;
    private final Inbox inbox;
    private final Transactions tx;
    private final int feedCount;
    private final DeliveryRules rules;
    private final PulledFeed pulled;
    private final SourceAudiences audiences;

    SubscriptionBackfill(Items items, Sources sources, CurrentItems current, Inbox inbox, Transactions tx,
            FanoutSettings settings, DeliveryRules rules, PulledFeed pulled, SourceAudiences audiences) {
        this.audiences = audiences;
        this.rules = rules;
        this.pulled = pulled;
        this.items = items;
        this.sources = sources;
        this.current = current;
        this.inbox = inbox;
        this.tx = tx;
        this.feedCount = settings.backfill();
    }

    /**
     * A subscription about to be made: who follows which source, taking which media (a
     * {@link MediaType} mask), filed in which of their folders (whose rules then apply).
     */
    public record Follow(long userId, long sourceId, int mask, Set<Long> folderIds) {

        public Follow {
            folderIds = Set.copyOf(folderIds);
        }

        public Follow(long userId, long sourceId, int mask) {
            this(userId, sourceId, mask, Set.of());
        }
    }

    /**
     * A back-fill read and filtered before the subscribing transaction: the rows each follow
     * would receive, the verdicts of the person's filter rules on them, and each source's publish
     * count it was read at ({@link SourceAudiences#publishedSeq}): the subscribing transaction
     * checks it under the source's lock, and the subscription takes by fan-out only the
     * publishes after it.
     */
    public record Prepared(List<InboxRow> rows, DeliveryRules.Verdicts verdicts, Map<Long, Long> seqs) {

        /** Nothing to deliver. */
        public static final Prepared NONE = new Prepared(List.of(), DeliveryRules.Verdicts.NONE, Map.of());

        public Prepared {
            seqs = Map.copyOf(seqs);
        }

        /** The publish count of the source this was read at (0: unknown, never published). */
        public long seq(long sourceId) {
            return seqs.getOrDefault(sourceId, 0L);
        }
    }

    /**
     * Reads what these follows would receive and matches the person's filter rules on it, before
     * (and outside) the transaction that subscribes: rules never run while it holds its locks.
     * Reads only (READ COMMITTED: what the transaction would have read a moment later).
     */
    public Prepared prepare(List<Follow> follows) {
        if (follows.isEmpty()) {
            return Prepared.NONE;
        }
        if (feedCount == 0) {
            return new Prepared(List.of(), DeliveryRules.Verdicts.NONE,
                    audiences.publishedSeqs(follows.stream().map(Follow::sourceId).distinct().toList()));
        }
        List<Long> sourceIds = follows.stream().map(Follow::sourceId).distinct().toList();
        // First: whatever is published after this read moves the count, and the subscription reads again.
        Map<Long, Long> seqs = audiences.publishedSeqs(sourceIds);
        Map<Long, SourceKind> kinds = new HashMap<>();
        sources.getAll(sourceIds).forEach(source -> kinds.put(source.id(), source.body().kind()));
        List<Long> feeds = sourceIds.stream().filter(id -> kinds.get(id) == SourceKind.FEED).toList();
        // A filtered subscription looks through all of a document's items for ones it takes.
        boolean filtered = follows.stream().anyMatch(one -> one.mask() != MediaType.ALL);
        Map<Long, List<Long>> currentIds = current.newestOf(feeds, filtered ? CurrentItems.MAX_PER_SOURCE : feedCount);
        Map<Long, Stored<Item>> currentItems = byId(items.getAll(currentIds.values().stream().flatMap(List::stream).toList()));
        List<InboxRow> rows = new ArrayList<>();
        for (Follow follow : follows) {
            rows.addAll(rows(follow, kinds.get(follow.sourceId()) == SourceKind.FEED,
                    currentIds.getOrDefault(follow.sourceId(), List.of()), currentItems));
        }
        // People's filter rules apply as in fan-out: drop, mark read, star; folder rules also to
        // the folders the subscriptions are about to be filed in.
        Map<Long, Map<Long, Set<Long>>> filing = new HashMap<>();
        for (Follow follow : follows) {
            follow.folderIds().forEach(folder -> filing.computeIfAbsent(follow.userId(), user -> new HashMap<>())
                    .computeIfAbsent(folder, f -> new HashSet<>()).add(follow.sourceId()));
        }
        return new Prepared(rows, rules.decide(rows, filing), seqs);
    }

    /** Delivers the source's current items that the subscription takes; the number delivered (new to the inbox). */
    public int backfill(Subscription subscription) {
        return backfillAll(List.of(subscription));
    }

    /**
     * {@link #backfill} for many subscriptions at once: the sources, their current items and
     * the items themselves are each read in one go, and delivered in one write. Matches rules
     * where it is called: call {@link #prepare} before a transaction and {@link #deliver} in it instead.
     */
    public int backfillAll(List<Subscription> subscriptions) {
        Prepared prepared = prepare(subscriptions.stream()
                .map(one -> new Follow(one.userId(), one.sourceId(), MediaType.maskOf(one.media()))).toList());
        return deliver(prepared, subscriptions);
    }

    /**
     * Writes a prepared back-fill, in the caller's transaction if there is one, for the
     * subscriptions actually made (a follow prepared that found the person following already
     * gets nothing); the number of rows new to the inbox.
     */
    public int deliver(Prepared prepared, List<Subscription> made) {
        Set<List<Long>> pairs = new HashSet<>();
        made.forEach(one -> pairs.add(List.of(one.userId(), one.sourceId())));
        List<InboxRow> rows = prepared.rows().stream().filter(row -> pairs.contains(List.of(row.userId(), row.sourceId()))).toList();
        if (rows.isEmpty()) {
            return 0;
        }
        return tx.write("back-fill " + made.size() + " subscriptions", status -> {
            // Pulled items reach their followers at timeline time (PulledFeed.followed set where from,
            // in the subscribing transaction: so this reads it there).
            List<InboxRow> pushed = pulled.toPush(rows);
            if (pushed.isEmpty()) {
                return 0;
            }
            DeliveryRules.Plan plan = rules.plan(pushed, prepared.verdicts());
            List<InboxRow> inserted = inbox.deliver(plan.rows(), status, new InboxEvent(InboxEvent.Type.UNREAD, 0));
            plan.delivered(inserted);
            return inserted.size();
        });
    }

    private List<InboxRow> rows(Follow follow, boolean feed, List<Long> currentIds, Map<Long, Stored<Item>> currentItems) {
        int count = feed ? feedCount : OWNED_SOURCE_ITEMS;
        int mask = follow.mask();
        List<Stored<Item>> candidates = currentIds.stream().limit(mask == MediaType.ALL ? count : CurrentItems.MAX_PER_SOURCE)
                .map(currentItems::get).filter(Objects::nonNull).toList();
        if (candidates.isEmpty()) {
            // Look a little further back for a filtered subscription, so it is not left empty.
            int window = mask == MediaType.ALL ? count : Math.min(Items.MAX_PAGE, count * 5);
            candidates = items.ofSource(follow.sourceId(), null, null, Math.min(Items.MAX_PAGE, window));
        }
        return candidates.stream()
                .filter(item -> !item.body().deleted())
                .filter(item -> (mask & item.body().mediaType().bit()) != 0)
                .sorted(Comparator.comparingLong((Stored<Item> item) -> item.id()).reversed())
                .limit(count)
                .map(item -> new InboxRow(follow.userId(), item.id(), follow.sourceId(), item.body().mediaType(), false,
                        item.body().story()))
                .toList();
    }

    private static Map<Long, Stored<Item>> byId(List<Stored<Item>> items) {
        Map<Long, Stored<Item>> byId = new HashMap<>();
        items.forEach(item -> byId.put(item.id(), item));
        return byId;
    }
}
