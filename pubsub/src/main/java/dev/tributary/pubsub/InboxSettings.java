package dev.tributary.pubsub;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The unread horizon ({@code tributary.inbox.*}): how much of a person's inbox is kept, so that
 * unread counts, unread lists and per-source views cover everything not read in it. The home
 * timeline still shows only the newest {@code tributary.timeline.max-entries} of it.
 *
 * @param keep entries whose item is older than this are trimmed, read or not
 * @param maxEntries entries kept per person at most; past it the oldest read entries are trimmed
 *        first, then the oldest unread (counted, and reported as {@code trimmed_unread}), but never
 *        a source's newest {@code minUnreadPerSource} unread: those may take an inbox past it
 * @param minUnreadPerSource unread entries of each source that trimming past {@code maxEntries}
 *        always keeps (the newest), so that a full inbox never empties a whole feed; 0: none
 */
@ConfigurationProperties("tributary.inbox")
@Validated
public record InboxSettings(
        @NotNull @DefaultValue("30d") Duration keep,
        @Min(1) @Max(1_000_000) @DefaultValue("10000") int maxEntries,
        @Min(0) @Max(1000) @DefaultValue("10") int minUnreadPerSource) {

    public InboxSettings {
        if (keep != null && keep.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("tributary.inbox.keep must be at least 1m, not " + keep);
        }
    }
}
