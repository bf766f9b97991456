package dev.tributary.api.item;

import dev.tributary.api.retention.RetentionJob;
import dev.tributary.api.retention.RetentionSettings;
import dev.tributary.crawler.RetiredFeeds;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Stored;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * Purges the items of feeds retired for want of readers, once retired longer than a grace: each
 * is tombstoned ({@link Publisher#purge}), so its content goes but its guid stays, and the feed's
 * old entries are not announced as new when someone follows it again. Kept: items someone starred
 * (a star is a person's own keeping) and items someone commented on (comments are people's own
 * writing, and the orphaned-comments job would remove them with the item). Likes carry no text,
 * so they keep nothing. Walks each retired feed newest first, a page at a time, each page one
 * transaction; a feed someone follows again meanwhile is left at once.
 */
@Component
class RetiredFeedItems implements RetentionJob {

    /** Feeds listed per query. */
    private static final int FEEDS = 100;

    private final RetiredFeeds retired;
    private final Items items;
    private final Publisher publisher;
    private final ReactionCounts reactions;
    private final RetentionSettings settings;

    RetiredFeedItems(RetiredFeeds retired, Items items, Publisher publisher, ReactionCounts reactions, RetentionSettings settings) {
        this.retired = retired;
        this.items = items;
        this.publisher = publisher;
        this.reactions = reactions;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "retired-feed-items";
    }

    @Override
    public Duration every() {
        return settings.retiredFeedItems().every();
    }

    @Override
    public long sweep(LongConsumer removed) {
        // Feeds retired within the grace are not purged yet, but one followed again must be crawled again.
        retired.wakeFollowed();
        long total = 0;
        long after = 0;
        List<Long> feeds;
        do {
            feeds = retired.retiredLongerThan(settings.retiredFeedItems().grace(), after, FEEDS);
            for (long feed : feeds) {
                total += purge(feed, removed);
            }
            after = feeds.isEmpty() ? after : feeds.getLast();
        } while (!feeds.isEmpty());
        return total;
    }

    /** Read under the purge's item locks: a comment that holds its item first is counted here. */
    private Set<Long> commented(List<Long> itemIds) {
        Map<Long, ReactionCount> counts = reactions.of(itemIds);
        return itemIds.stream().filter(id -> counts.get(id) != null && counts.get(id).comments() > 0).collect(Collectors.toSet());
    }

    private long purge(long feed, LongConsumer removed) {
        int batch = Math.min(settings.batchSize(), Math.min(Items.MAX_PAGE, Publisher.MAX_ITEMS_PER_PUBLISH));
        long total = 0;
        Long maxId = null;
        while (true) {
            List<Stored<Item>> page = items.ofSource(feed, maxId, null, batch);
            // Checked per page: a reader who follows the feed again stops the purge from here on.
            if (page.isEmpty() || !retired.isRetired(feed)) {
                return total;
            }
            maxId = page.getLast().id();
            int purged = publisher.purge(page.stream().map(Stored::id).toList(), this::commented).size();
            removed.accept(purged);
            total += purged;
        }
    }
}
