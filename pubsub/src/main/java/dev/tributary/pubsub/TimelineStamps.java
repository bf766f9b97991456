package dev.tributary.pubsub;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The version stamps of one home-timeline page: the epoch (null if Redis could not give one:
 * cache nothing), the person's inbox stamp and each item's (null: not changed in the last
 * {@link #TTL}). A page kept under equal stamps is still the page MySQL would give.
 */
public record TimelineStamps(@Nullable String epoch, @Nullable String person, List<@Nullable String> items) {

    /** How long an untouched stamp lives; anything cached under a stamp must expire sooner. */
    public static final Duration TTL = Duration.ofDays(1);
}
