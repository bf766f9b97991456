package dev.tributary.api.timeline;

import java.time.Duration;

/**
 * How long a node keeps a person's newest page or counts: the bound, less a share of it fixed per
 * person, so that what was kept together (a node's first minutes, or every poller's after a
 * restart) is not read again all in the same moment.
 */
final class KeptLifetime {

    /** The most a lifetime is shortened, as a share of the bound: 10 minutes become 7.5 to 10. */
    static final double SPREAD = 0.25;

    private KeptLifetime() {
    }

    /** The person's lifetime under {@code bound}: never longer, at least {@code 1 - SPREAD} of it. */
    static Duration of(long userId, Duration bound) {
        // Fibonacci hashing: consecutive ids (people who signed up together) land far apart.
        double share = ((userId * 0x9E3779B97F4A7C15L) >>> 11) * 0x1.0p-53;
        return bound.minusMillis((long) (bound.toMillis() * SPREAD * share));
    }
}
