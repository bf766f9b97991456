package dev.tributary.pubsub;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of home timelines and unread counters ({@code tributary.timeline.*}).
 *
 * @param maxEntries the home timeline window: the newest N inbox entries; older ones are trimmed
 * @param trimInterval how often inboxes that received entries are trimmed back to the window
 * @param trimBatch inboxes trimmed per pass
 * @param counterTtl how long a person's unread counters stay in Redis untouched before they are
 *        dropped (and rebuilt from MySQL on the next read)
 * @param countHorizonLag how far behind now the count horizon is raised: a fan-out batch of an item
 *        stored more recently moves no counter (reads count such entries from the inbox), an older
 *        one moves them as every other writer does
 * @param countHorizonMaxLag how far behind now the count horizon may stay for an item whose
 *        fan-out is still pending (it stays below such items, so their batches move no counter)
 * @param countHorizonInterval how often each node raises the count horizon
 * @param countFoldAt how many inbox entries (read or not) between a person's own horizon and the
 *        global one make a read fold them into the person's counters (below it, reads count them
 *        from the inbox)
 * @param countPromoteAt how many inbox entries above the global count horizon make a read promote
 *        the person: from then on every fan-out batch moves their counters, whatever its item, so
 *        their reads count nothing from the inbox (a person receiving many items while fan-out has
 *        a backlog would otherwise count them on every read)
 * @param countPromotedFor how long a promotion lasts after the person's last read of their counts
 */
@ConfigurationProperties("tributary.timeline")
@Validated
public record TimelineSettings(
        @Min(1) @Max(100_000) @DefaultValue("800") int maxEntries,
        @NotNull @DefaultValue("30s") Duration trimInterval,
        @Min(1) @Max(100_000) @DefaultValue("1000") int trimBatch,
        @NotNull @DefaultValue("7d") Duration counterTtl,
        @NotNull @DefaultValue("2s") Duration countHorizonLag,
        @NotNull @DefaultValue("60s") Duration countHorizonMaxLag,
        @NotNull @DefaultValue("1s") Duration countHorizonInterval,
        @Min(1) @Max(100_000) @DefaultValue("16") int countFoldAt,
        @Min(1) @Max(1_000_000) @DefaultValue("64") int countPromoteAt,
        @NotNull @DefaultValue("10m") Duration countPromotedFor) {

    public TimelineSettings {
        if (trimInterval != null && (trimInterval.isNegative() || trimInterval.isZero())) {
            throw new IllegalArgumentException("tributary.timeline.trim-interval must be positive, not " + trimInterval);
        }
        if (counterTtl != null && counterTtl.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("tributary.timeline.counter-ttl must be at least 1m, not " + counterTtl);
        }
        if (countHorizonLag != null && (countHorizonLag.compareTo(Duration.ofSeconds(1)) < 0
                || countHorizonLag.compareTo(Duration.ofHours(1)) > 0)) {
            throw new IllegalArgumentException("tributary.timeline.count-horizon-lag must be between 1s and 1h, not " + countHorizonLag);
        }
        if (countHorizonLag != null && countHorizonMaxLag != null
                && (countHorizonMaxLag.compareTo(countHorizonLag) < 0 || countHorizonMaxLag.compareTo(Duration.ofHours(1)) > 0)) {
            throw new IllegalArgumentException("tributary.timeline.count-horizon-max-lag must be between count-horizon-lag ("
                    + countHorizonLag + ") and 1h, not " + countHorizonMaxLag);
        }
        if (countHorizonInterval != null && (countHorizonInterval.compareTo(Duration.ofMillis(100)) < 0
                || countHorizonInterval.compareTo(Duration.ofMinutes(10)) > 0)) {
            throw new IllegalArgumentException(
                    "tributary.timeline.count-horizon-interval must be between 100ms and 10m, not " + countHorizonInterval);
        }
        if (countPromotedFor != null && (countPromotedFor.compareTo(Duration.ofMinutes(1)) < 0
                || countPromotedFor.compareTo(Duration.ofDays(1)) > 0)) {
            throw new IllegalArgumentException(
                    "tributary.timeline.count-promoted-for must be between 1m and 1d, not " + countPromotedFor);
        }
    }
}
