package dev.tributary.pubsub;

import java.time.Instant;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A walk over the ids of a person's whole inbox (the unread horizon, not only the home window),
 * for sync APIs that list ids first and fetch contents after: by read state, sources (a folder's
 * or one feed's), the time the entries' items were stored ({@code newerThan} inclusive,
 * {@code olderThan} exclusive), newest or oldest first, resuming after the last id of the
 * previous page.
 */
public record InboxScan(
        Reads reads,
        @Nullable Set<Long> sourceIds,
        @Nullable Instant newerThan,
        @Nullable Instant olderThan,
        @Nullable Long after,
        boolean oldestFirst,
        int limit) {

    /** Most ids one scan returns: what the apps ask for in one call ({@code n=10000}). */
    public static final int MAX_LIMIT = 10_000;

    /** Which entries by read state. */
    public enum Reads { ANY, UNREAD, READ }

    public InboxScan {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", not " + limit);
        }
        sourceIds = sourceIds == null ? null : Set.copyOf(sourceIds);
    }
}
