package dev.tributary.crawler.refresh;

import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Stored;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Retires a feed that answered 410 Gone: its items are tombstoned (the product rule for
 * explicit deletion), so timelines stop showing them and the fan-out cleaner removes their
 * inbox rows. The feed itself stays, marked gone, so subscribers can see why it went quiet.
 */
@Component
class GoneFeeds {

    private static final Logger log = LoggerFactory.getLogger(GoneFeeds.class);

    private final Items items;
    private final Publisher publisher;

    GoneFeeds(Items items, Publisher publisher) {
        this.items = items;
        this.publisher = publisher;
    }

    /** Tombstones every live item of {@code sourceId}; returns how many. */
    int retire(long sourceId) {
        int retired = 0;
        Long before = null;
        while (true) {
            List<Stored<Item>> page = items.ofSource(sourceId, before, null, Items.MAX_PAGE);
            if (page.isEmpty()) {
                break;
            }
            for (Stored<Item> item : page) {
                if (publisher.tombstone(item.id())) {
                    retired++;
                }
            }
            before = page.getLast().id();
        }
        log.info("feed {} is gone (410): {} items tombstoned", sourceId, retired);
        return retired;
    }
}
