package dev.tributary.api.ratelimit;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Where rate-limit buckets are counted (Redis; a fake in unit tests). */
interface Buckets {

    /**
     * Counts one request against {@code key}'s bucket.
     * @throws RuntimeException if the counter is unreachable (the caller lets the request through)
     */
    Bucket take(String key, int limit, Duration window);

    /**
     * As {@link #take(String, int, Duration)}, also reading {@code readKeys}' values in the same
     * round trip where this store can ({@link ReadAlong}); the values are null where it cannot.
     */
    default Taken take(String key, int limit, Duration window, List<String> readKeys) {
        return new Taken(take(key, limit, window), null);
    }

    /** A bucket after one more request, and the values read along with it (null: none were read). */
    record Taken(Bucket bucket, @Nullable List<@Nullable String> values) {
    }
}
