package dev.tributary.crawler.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * When a feed is fetched next: an interval adapted to how often the feed publishes, never
 * sooner than the server's freshness hints allow, clamped to the configured bounds; exponential
 * backoff after errors; jitter on every delay so feeds do not refresh in lockstep. Pure.
 */
public final class FetchSchedule {

    /** Newest entries whose spacing estimates a feed's publishing rate. */
    private static final int RATE_SAMPLE = 10;

    private final Duration min;
    private final Duration max;
    private final Duration backoffCap;
    private final double jitter;
    private final RandomGenerator random;

    public FetchSchedule(Duration min, Duration max, Duration backoffCap, double jitter, RandomGenerator random) {
        this.min = min;
        this.max = max;
        this.backoffCap = backoffCap;
        this.jitter = jitter;
        this.random = random;
    }

    /** What the server said about freshness: {@code Cache-Control: max-age}, {@code Expires}, RSS {@code <ttl>}. */
    public record Hints(@Nullable Duration maxAge, @Nullable Duration expiresIn, @Nullable Duration ttl) {

        public static final Hints NONE = new Hints(null, null, null);

        Duration floor() {
            Duration floor = Duration.ZERO;
            for (Duration hint : new Duration[] {maxAge, expiresIn, ttl}) {
                if (hint != null && hint.compareTo(floor) > 0) {
                    floor = hint;
                }
            }
            return floor;
        }
    }

    /** The next step after a fetch: the interval to remember and the (jittered) delay to wait. */
    public record Plan(Duration interval, Duration delay) {
    }

    /**
     * After a successful fetch.
     *
     * @param current the interval so far
     * @param changed whether new entries arrived
     * @param published publication times of the feed's entries (any order), to estimate its rate
     * @param pushed whether a WebSub hub delivers this feed (then it is polled only at the maximum)
     */
    public Plan afterSuccess(Duration current, boolean changed, List<Instant> published, Hints hints, boolean pushed) {
        Duration base;
        if (pushed) {
            base = max;
        } else if (changed) {
            Duration gap = typicalGap(published);
            base = gap != null ? gap : current.dividedBy(2);
        } else {
            // A quiet feed is asked less and less often, until it publishes again.
            base = current.multipliedBy(3).dividedBy(2);
        }
        Duration interval = clamp(longer(base, hints.floor()), min, max);
        return new Plan(interval, jittered(interval));
    }

    /**
     * After the {@code consecutiveErrors}-th failed fetch in a row: {@code min × 2^(n-1)}, capped,
     * but not sooner than the server's {@code Retry-After}.
     */
    public Plan afterError(Duration current, int consecutiveErrors, @Nullable Duration retryAfter) {
        int doublings = Math.min(Math.max(consecutiveErrors - 1, 0), 30);
        Duration backoff = clamp(min.multipliedBy(1L << doublings), min, backoffCap);
        if (retryAfter != null) {
            backoff = longer(backoff, clamp(retryAfter, Duration.ZERO, backoffCap));
        }
        return new Plan(current, jittered(backoff));
    }

    /**
     * When to fetch a feed first whose subscribe-time fetch the site answered with {@code Retry-After}:
     * then, as the site asked, but no later than the error backoff's cap.
     */
    public Duration firstFetchAfter(Duration retryAfter) {
        return clamp(retryAfter, Duration.ZERO, backoffCap);
    }

    /** The first fetch of a feed found by a subscriber: soon, but spread. */
    public Duration initialInterval() {
        return min;
    }

    /** Mean spacing of the newest entries' dates; null when there are too few distinct dates. */
    static @Nullable Duration typicalGap(List<Instant> published) {
        List<Instant> newest = published.stream().distinct().sorted((a, b) -> b.compareTo(a)).limit(RATE_SAMPLE).toList();
        if (newest.size() < 2) {
            return null;
        }
        Duration span = Duration.between(newest.getLast(), newest.getFirst());
        Duration gap = span.dividedBy(newest.size() - 1);
        return gap.compareTo(Duration.ofSeconds(1)) < 0 ? null : gap;
    }

    private Duration jittered(Duration delay) {
        if (jitter == 0) {
            return delay;
        }
        double factor = 1 + jitter * (2 * random.nextDouble() - 1);
        return Duration.ofMillis(Math.max(0, Math.round(delay.toMillis() * factor)));
    }

    private static Duration clamp(Duration value, Duration low, Duration high) {
        return value.compareTo(low) < 0 ? low : value.compareTo(high) > 0 ? high : value;
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
