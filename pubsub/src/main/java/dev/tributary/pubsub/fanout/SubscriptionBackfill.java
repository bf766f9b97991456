package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.Subscription;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.inbox.InboxRow;
import dev.tributary.storage.Transactions;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Gives a new subscriber the source's latest few entries ({@code tributary.fanout.backfill}),
 * so that following a feed shows something at once instead of an empty timeline until the next
 * crawl. Older entries stay reachable through the source's own feed.
 */
@Component
public class SubscriptionBackfill {

    private final Items items;
    private final Inbox inbox;
    private final Transactions tx;
    private final int count;

    SubscriptionBackfill(Items items, Inbox inbox, Transactions tx, FanoutSettings settings) {
        this.items = items;
        this.inbox = inbox;
        this.tx = tx;
        this.count = settings.backfill();
    }

    /** Delivers the latest entries the subscription takes (of the last few the source has); the number delivered. */
    public int backfill(Subscription subscription) {
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
        return tx.write("back-fill subscription " + subscription.id(),
                status -> inbox.deliver(rows, status, new InboxEvent(InboxEvent.Type.UNREAD, 0)).size());
    }

    private static InboxRow row(Subscription subscription, Stored<Item> item) {
        return new InboxRow(subscription.userId(), item.id(), subscription.sourceId(), item.body().mediaType(), false);
    }
}
