package dev.tributary.pubsub.fanout;

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
import dev.tributary.storage.Transactions;
import java.util.Comparator;
import java.util.List;
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

    SubscriptionBackfill(Items items, Sources sources, CurrentItems current, Inbox inbox, Transactions tx,
            FanoutSettings settings) {
        this.items = items;
        this.sources = sources;
        this.current = current;
        this.inbox = inbox;
        this.tx = tx;
        this.feedCount = settings.backfill();
    }

    /** Delivers the source's current items that the subscription takes; the number delivered (new to the inbox). */
    public int backfill(Subscription subscription) {
        if (feedCount == 0) {
            return 0;
        }
        boolean feed = sources.get(subscription.sourceId()).body().kind() == SourceKind.FEED;
        int count = feed ? feedCount : OWNED_SOURCE_ITEMS;
        int mask = MediaType.maskOf(subscription.media());
        List<Stored<Item>> candidates = feed
                ? currentOf(subscription.sourceId(), mask == MediaType.ALL ? count : CurrentItems.MAX_PER_SOURCE)
                : List.of();
        if (candidates.isEmpty()) {
            // Look a little further back for a filtered subscription, so it is not left empty.
            int window = mask == MediaType.ALL ? count : Math.min(Items.MAX_PAGE, count * 5);
            candidates = items.ofSource(subscription.sourceId(), null, null, Math.min(Items.MAX_PAGE, window));
        }
        List<InboxRow> rows = candidates.stream()
                .filter(item -> !item.body().deleted())
                .filter(item -> (mask & item.body().mediaType().bit()) != 0)
                .sorted(Comparator.comparingLong((Stored<Item> item) -> item.id()).reversed())
                .limit(count)
                .map(item -> row(subscription, item))
                .toList();
        if (rows.isEmpty()) {
            return 0;
        }
        return tx.write("back-fill subscription " + subscription.id(),
                status -> inbox.deliver(rows, status, new InboxEvent(InboxEvent.Type.UNREAD, 0)).size());
    }

    private List<Stored<Item>> currentOf(long sourceId, int limit) {
        List<Long> ids = current.newest(sourceId, limit);
        return ids.isEmpty() ? List.of() : items.getAll(ids);
    }

    private static InboxRow row(Subscription subscription, Stored<Item> item) {
        return new InboxRow(subscription.userId(), item.id(), subscription.sourceId(), item.body().mediaType(), false);
    }
}
