package dev.tributary.api.ratelimit;

import java.time.Duration;

/** Where rate-limit buckets are counted (Redis; a fake in unit tests). */
interface Buckets {

    /**
     * Counts one request against {@code key}'s bucket.
     * @throws RuntimeException if the counter is unreachable (the caller lets the request through)
     */
    Bucket take(String key, int limit, Duration window);
}
