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
import dev.tributary.storage.Transactions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.stereotype.Component;

/**
 * Gives a new subscriber the source's current items at once, unread and counted: for a feed, the
 * items its latest fetched document carried ({@link CurrentItems}), up to
 * {@code tributary.fanout.backfill}; for a person's or a group's source, its newest
 * {@link #OWNED_SOURCE_ITEMS}. A feed with no recorded document (never fetched since the record
 * began) gives its newest {@code backfill} items. Inserts are idempotent and leave an existing
 * inbox row (and its read flag) alone, so refollowing never makes read items unread again.
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

    SubscriptionBackfill(Items items, Sources sources, CurrentItems current, Inbox inbox, Transactions tx,
            FanoutSettings settings, DeliveryRules rules, PulledFeed pulled) {
        this.rules = rules;
        this.pulled = pulled;
        this.items = items;
        this.sources = sources;
        this.current = current;
        this.inbox = inbox;
        this.tx = tx;
        this.feedCount = settings.backfill();
    }

    /** Delivers the source's current items that the subscription takes; the number delivered (new to the inbox). */
    public int backfill(Subscription subscription) {
        return backfillAll(List.of(subscription));
    }

    /**
     * {@link #backfill} for many subscriptions at once: the sources, their current items and
     * the items themselves are each read in one go, and delivered in one write.
     */
    public int backfillAll(List<Subscription> subscriptions) {
        if (feedCount == 0 || subscriptions.isEmpty()) {
            return 0;
        }
        List<Long> sourceIds = subscriptions.stream().map(Subscription::sourceId).distinct().toList();
        Map<Long, SourceKind> kinds = new HashMap<>();
        sources.getAll(sourceIds).forEach(source -> kinds.put(source.id(), source.body().kind()));
        List<Long> feeds = sourceIds.stream().filter(id -> kinds.get(id) == SourceKind.FEED).toList();
        // A filtered subscription looks through all of a document's items for ones it takes.
        boolean filtered = subscriptions.stream().anyMatch(one -> MediaType.maskOf(one.media()) != MediaType.ALL);
        Map<Long, List<Long>> currentIds = current.newestOf(feeds, filtered ? CurrentItems.MAX_PER_SOURCE : feedCount);
        Map<Long, Stored<Item>> currentItems = byId(items.getAll(currentIds.values().stream().flatMap(List::stream).toList()));
        List<InboxRow> rows = new ArrayList<>();
        for (Subscription subscription : subscriptions) {
            rows.addAll(rows(subscription, kinds.get(subscription.sourceId()) == SourceKind.FEED,
                    currentIds.getOrDefault(subscription.sourceId(), List.of()), currentItems));
        }
        // Pulled items reach their followers at timeline time (PulledFeed.followed set where from).
        List<InboxRow> pushed = pulled.toPush(rows);
        if (pushed.isEmpty()) {
            return 0;
        }
        return tx.write("back-fill " + subscriptions.size() + " subscriptions",
                status -> {
                    // People's filter rules apply as in fan-out: drop, mark read, star.
                    DeliveryRules.Plan plan = rules.plan(pushed);
                    List<InboxRow> inserted = inbox.deliver(plan.rows(), status, new InboxEvent(InboxEvent.Type.UNREAD, 0));
                    plan.delivered(inserted);
                    return inserted.size();
                });
    }

    private List<InboxRow> rows(Subscription subscription, boolean feed, List<Long> currentIds, Map<Long, Stored<Item>> currentItems) {
        int count = feed ? feedCount : OWNED_SOURCE_ITEMS;
        int mask = MediaType.maskOf(subscription.media());
        List<Stored<Item>> candidates = currentIds.stream().limit(mask == MediaType.ALL ? count : CurrentItems.MAX_PER_SOURCE)
                .map(currentItems::get).filter(Objects::nonNull).toList();
        if (candidates.isEmpty()) {
            // Look a little further back for a filtered subscription, so it is not left empty.
            int window = mask == MediaType.ALL ? count : Math.min(Items.MAX_PAGE, count * 5);
            candidates = items.ofSource(subscription.sourceId(), null, null, Math.min(Items.MAX_PAGE, window));
        }
        return candidates.stream()
                .filter(item -> !item.body().deleted())
                .filter(item -> (mask & item.body().mediaType().bit()) != 0)
                .sorted(Comparator.comparingLong((Stored<Item> item) -> item.id()).reversed())
                .limit(count)
                .map(item -> row(subscription, item))
                .toList();
    }

    private static Map<Long, Stored<Item>> byId(List<Stored<Item>> items) {
        Map<Long, Stored<Item>> byId = new HashMap<>();
        items.forEach(item -> byId.put(item.id(), item));
        return byId;
    }

    private static InboxRow row(Subscription subscription, Stored<Item> item) {
        return new InboxRow(subscription.userId(), item.id(), subscription.sourceId(), item.body().mediaType(), false,
                item.body().story());
    }
}
