package dev.tributary.api.retention;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Retention jobs ({@code tributary.retention.*}): what is removed, how often, in batches of what size.
 *
 * @param enabled false: no retention job runs on this node
 * @param batchSize rows per delete statement (each its own transaction), so a sweep never holds many locks
 * @param authorizations OAuth grants whose every token has expired
 * @param apps registered OAuth apps nobody uses
 * @param orphanedComments comments and likes of items that were deleted
 * @param retiredFeedItems items of feeds retired for want of readers
 * @param pulledItems pulled sources' rows (and read exceptions) of items older than {@code tributary.inbox.keep}
 */
@ConfigurationProperties("tributary.retention")
@Validated
public record RetentionSettings(
        @DefaultValue("true") boolean enabled,
        @Min(1) @Max(10_000) @DefaultValue("500") int batchSize,
        @Valid @NotNull @DefaultValue Authorizations authorizations,
        @Valid @NotNull @DefaultValue Apps apps,
        @Valid @NotNull @DefaultValue Job orphanedComments,
        @Valid @NotNull @DefaultValue RetiredFeedItems retiredFeedItems,
        @Valid @NotNull @DefaultValue Job pulledItems) {

    /**
     * @param every how often the sweep runs
     * @param grace a grant is removed once its last token has been expired this long
     *        (and it was created at least this long ago: a consent page left open ages out too)
     */
    public record Authorizations(@NotNull @DefaultValue("1h") Duration every, @NotNull @DefaultValue("1d") Duration grace) {
        public Authorizations {
            atLeast(every, Duration.ofSeconds(1), "authorizations.every");
            atLeast(grace, Duration.ZERO, "authorizations.grace");
        }
    }

    /**
     * @param every how often the sweep runs
     * @param unusedAfter an app registered longer ago than this with no grant created, refreshed
     *        or still valid within it is removed with its consents; longer than the refresh-token
     *        lifetime, so an app in use always refreshes within it
     */
    public record Apps(@NotNull @DefaultValue("6h") Duration every, @NotNull @DefaultValue("90d") Duration unusedAfter) {
        public Apps {
            atLeast(every, Duration.ofSeconds(1), "apps.every");
            atLeast(unusedAfter, Duration.ofDays(1), "apps.unused-after");
        }
    }

    /** @param every how often the sweep runs */
    public record Job(@NotNull @DefaultValue("1h") Duration every) {
        public Job {
            atLeast(every, Duration.ofSeconds(1), "every");
        }
    }

    /**
     * @param every how often the sweep runs
     * @param grace a feed's items are purged once it has been retired this long
     *        ({@code tributary.crawler.retire-after} without readers, then this)
     */
    public record RetiredFeedItems(@NotNull @DefaultValue("6h") Duration every, @NotNull @DefaultValue("7d") Duration grace) {
        public RetiredFeedItems {
            atLeast(every, Duration.ofSeconds(1), "retired-feed-items.every");
            atLeast(grace, Duration.ZERO, "retired-feed-items.grace");
        }
    }

    private static void atLeast(Duration value, Duration floor, String name) {
        if (value != null && value.compareTo(floor) < 0) {
            throw new IllegalArgumentException("tributary.retention." + name + " must be at least " + floor + ", not " + value);
        }
    }
}
