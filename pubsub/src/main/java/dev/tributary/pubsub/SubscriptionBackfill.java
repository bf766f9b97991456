package dev.tributary.pubsub;

import dev.tributary.storage.Transactions;
import dev.tributary.storage.Entity;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Gives a new subscriber the source's latest few entries ({@code tributary.fanout.backfill}),
 * so that following a feed shows something at once instead of an empty timeline until the next
 * crawl. Older entries stay reachable through the source's own feed.
 */
@Component
class SubscriptionBackfill {

    private final Items items;
    private final Inbox inbox;
    private final UnreadCounters counters;
    private final Transactions tx;
    private final int count;

    SubscriptionBackfill(Items items, Inbox inbox, UnreadCounters counters, Transactions tx, FanoutSettings settings) {
        this.items = items;
        this.inbox = inbox;
        this.counters = counters;
        this.tx = tx;
        this.count = settings.backfill();
    }

    /** Delivers the latest entries the subscription takes (of the last few the source has); the number delivered. */
    int backfill(Subscription subscription) {
        if (count == 0) {
            return 0;
        }
        int mask = MediaType.maskOf(subscription.media());
        // Look a little further back for a filtered subscription, so it is not left empty.
        int window = mask == MediaType.ALL ? count : Math.min(Items.MAX_PAGE, count * 5);
        List<InboxRow> rows = items.ofSource(subscription.sourceId(), null, null, window).stream()
                .filter(item -> (mask & item.body().mediaType().bit()) != 0)
                .limit(count)
                .map(item -> row(subscription, item))
                .toList();
        if (rows.isEmpty()) {
            return 0;
        }
        return tx.write("back-fill subscription " + subscription.id(), status -> {
            List<InboxRow> inserted = inbox.deliver(rows, status);
            counters.apply(inserted.stream().map(row -> UnreadDelta.of(row, 1)).toList(),
                    new InboxEvent(InboxEvent.Type.UNREAD, 0), inserted.isEmpty() ? List.of() : List.of(subscription.userId()));
            return inserted.size();
        });
    }

    private static InboxRow row(Subscription subscription, Entity<Item> item) {
        return new InboxRow(subscription.userId(), item.id(), subscription.sourceId(), item.body().mediaType(), false);
    }
}
