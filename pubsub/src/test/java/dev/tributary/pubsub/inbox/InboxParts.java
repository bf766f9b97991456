package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.MediaType;
import java.util.List;
import org.springframework.stereotype.Component;

/** Test access to the inbox's insides for tests of other packages that play crashes and losses. */
@Component
public class InboxParts {

    private final UnreadCounters counters;
    private final InboxTrimmer trimmer;
    private final CountHorizon horizon;

    InboxParts(UnreadCounters counters, InboxTrimmer trimmer, CountHorizon horizon) {
        this.counters = counters;
        this.trimmer = trimmer;
        this.horizon = horizon;
    }

    /**
     * Raises the count horizon to {@code itemId} (waiting for fan-out batches that read it): later
     * batches of items up to it move counters, and reads fold entries up to it. The value after.
     */
    public long raiseCountHorizonTo(long itemId) {
        return horizon.raiseTo(itemId);
    }

    /** Moves these people's counters by one unread of the source, as a batch does before it commits. */
    public void countUncommitted(List<Long> people, long sourceId, MediaType media) {
        counters.apply(people.stream().map(person -> new UnreadDelta(person, 0L, sourceId, media, 1)).toList(), null, List.of());
    }

    /** The Redis key of a person's unread counters. */
    public static String counterKey(long userId) {
        return UnreadCounters.key(userId);
    }

    /** Waits until the promotions reads asked for are made (they run on a thread of their own). */
    public void promotionsSettled() {
        if (!counters.promotionsSettled(java.time.Duration.ofSeconds(30))) {
            throw new IllegalStateException("promotions still running after 30 s");
        }
    }

    /** The Redis key of the sorted set of promoted people of a person's bucket. */
    public static String promotedKey(long userId) {
        return UnreadCounters.promotedKey(userId);
    }

    /** Trims one person's inbox back to the window now; the number of entries removed. */
    public int trim(long userId) {
        return trimmer.trim(userId);
    }
}
