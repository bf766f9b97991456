package dev.tributary.pubsub;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The version stamps of one home-timeline page: the epoch (null if Redis could not give one:
 * cache nothing), the person's inbox stamp and each item's (null: not changed in the last
 * {@link #TTL}). A page kept under equal stamps is still the page MySQL would give. {@code person}
 * folds in the stamps of the pulled sources the person follows; {@code own} is it without them (the
 * person's inbox, marks, stars and pulled follows) and {@code sources} those stamps by source, so a
 * page whose {@code own} is unchanged can be brought up to date from the sources alone;
 * {@code pulledList}: the version of this node's list of those sources they were read with (null
 * when the list was read again meanwhile), for {@link HomeFeed#newestPulled}.
 */
public record TimelineStamps(@Nullable String epoch, @Nullable String person, List<@Nullable String> items,
        @Nullable String own, Map<Long, String> sources, @Nullable String pulledList) {

    /** Stamps of a person who follows no pulled source. */
    public TimelineStamps(@Nullable String epoch, @Nullable String person, List<@Nullable String> items) {
        this(epoch, person, items, person, Map.of(), null);
    }

    /** How long an untouched stamp lives; anything cached under a stamp must expire sooner. */
    public static final Duration TTL = Duration.ofDays(1);
}
