package dev.tributary.api.ratelimit;

/**
 * A rate-limit bucket after one more request: how many it has taken in the current window, of how
 * many, and how long until the window resets.
 */
record Bucket(long count, int limit, long resetMillis) {

    boolean exceeded() {
        return count > limit;
    }

    long remaining() {
        return Math.max(0, limit - count);
    }

    /** Whole seconds until the reset, rounded up, so a client that waits that long finds it reset. */
    long resetSeconds() {
        return Math.max(1, (resetMillis + 999) / 1000);
    }
}
