package dev.tributary.pubsub;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How long a node keeps a person's newest page or counts, or an item's rendering: the bound, less
 * a share of it, so that what was kept together (a node's first minutes, or every poller's after a
 * restart) is not read again all in the same moment.
 */
public final class KeptLifetime {

    /** The most a renewed lifetime is shortened, as a share of the bound: 10 minutes become 7.5 to 10. */
    public static final double SPREAD = 0.25;
    /**
     * The most a first lifetime is shortened: 10 minutes become 2.5 to 10. What a node keeps first
     * it keeps for everyone at once (a start, or every poller after a restart); spread over most of
     * the bound, those people are read again as thinly as in the steady state, and each person's
     * later lifetimes keep them apart.
     */
    public static final double FIRST_SPREAD = 0.75;

    private KeptLifetime() {
    }

    /** The person's lifetime under {@code bound} when renewed: never longer, at least {@code 1 - SPREAD} of it. */
    public static Duration of(long userId, Duration bound) {
        return bound.minusMillis((long) (bound.toMillis() * SPREAD * share(userId)));
    }

    /**
     * The lifetime of what the node keeps for the person with nothing kept before (or only what
     * outlived the bound): never longer than {@code bound}, at least {@code 1 - FIRST_SPREAD} of it.
     */
    public static Duration first(long userId, Duration bound) {
        return bound.minusMillis((long) (bound.toMillis() * FIRST_SPREAD * share(userId)));
    }

    /**
     * Until when what is kept for the person {@code now} stays fresh: a person with something kept
     * before (even gone stale) renews their own lifetime ({@link #of}); a first keeping draws it
     * wider ({@link #first}).
     */
    public static Instant freshUntil(Instant now, long userId, Duration bound, boolean keptBefore) {
        return now.plus(keptBefore ? of(userId, bound) : first(userId, bound));
    }

    /**
     * A lifetime of half to all of {@code bound}, drawn anew each time: for what every request
     * renders again the moment it lapses (items on many pages), where a fixed lifetime would keep
     * what lapsed together lapsing together for good.
     */
    public static Duration drawn(Duration bound) {
        return bound.minusMillis((long) (bound.toMillis() * 0.5 * ThreadLocalRandom.current().nextDouble()));
    }

    /** A share in [0, 1) fixed per person. */
    private static double share(long userId) {
        // Fibonacci hashing: consecutive ids (people who signed up together) land far apart.
        return ((userId * 0x9E3779B97F4A7C15L) >>> 11) * 0x1.0p-53;
    }
}
