package dev.tributary.crawler.websub;

import java.net.URI;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Tributary's subscription to a feed's WebSub hub. */
public record WebSubscription(long sourceId, URI hub, URI topic, String secret, State state,
        @Nullable Instant leaseUntil, Instant requestedAt, @Nullable String lastError, long deliveries) {

    /** Where the subscription stands with the hub. */
    public enum State {
        /** Asked for; the hub has not verified it yet. */
        PENDING,
        VERIFIED,
        /** The hub refused it (or it expired): the feed is polled normally. */
        DENIED;

        String sql() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static State of(String sql) {
            return valueOf(sql.toUpperCase(java.util.Locale.ROOT));
        }
    }

    /** The hub pushes this feed's updates now. */
    public boolean active(Instant now) {
        return state == State.VERIFIED && leaseUntil != null && leaseUntil.isAfter(now);
    }
}
