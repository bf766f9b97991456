package dev.tributary.api.timeline;

import dev.tributary.api.retention.RetentionJob;
import dev.tributary.api.retention.RetentionSettings;
import dev.tributary.pubsub.HomeFeed;
import java.time.Duration;
import java.util.function.LongConsumer;
import org.springframework.stereotype.Component;

/**
 * Removes what pulled sources keep for items older than {@code tributary.inbox.keep}: no page,
 * count or mark takes them any more, as the inbox trimmer removes pushed entries past the horizon.
 */
@Component
class PulledItemsRetention implements RetentionJob {

    private final HomeFeed feed;
    private final RetentionSettings settings;

    PulledItemsRetention(HomeFeed feed, RetentionSettings settings) {
        this.feed = feed;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "pulled-items";
    }

    @Override
    public Duration every() {
        return settings.pulledItems().every();
    }

    @Override
    public long sweep(LongConsumer removed) {
        return feed.removeBeyondHorizon(settings.batchSize(), removed);
    }
}
