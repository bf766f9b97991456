package dev.tributary.crawler.schedule;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The crawl state of one feed source: where and how to fetch it next and how the last fetches
 * went. {@code leaseToken} is set on a state claimed for fetching and fences its outcome;
 * {@code soleReader}, on a claimed state, is the one person who reads the feed (null: several
 * readers, a profile's followers, or not known), whose share of the host it is fetched in.
 */
public record CrawlState(
        long sourceId,
        URI url,
        CrawlStatusKind status,
        @Nullable String etag,
        @Nullable String lastModified,
        Instant nextFetchAt,
        Duration interval,
        int consecutiveErrors,
        @Nullable Instant lastFetchedAt,
        @Nullable Integer lastHttpStatus,
        @Nullable String lastError,
        @Nullable String lastErrorKey,
        long fetchCount,
        @Nullable Push push,
        @Nullable Long leaseToken,
        @Nullable Long soleReader) {

    /** The feed's WebSub subscription, if it has one: whether the hub verified it, and until when. */
    public record Push(boolean verified, @Nullable Instant leaseUntil) {

        public boolean activeAt(Instant now) {
            return verified && leaseUntil != null && leaseUntil.isAfter(now);
        }
    }

    /** The lane of its host's queue this feed waits in: its one reader's, or the shared one ({@link HostGate#enter(String, long, HostGate.Lookup, java.time.Duration)}). */
    public long lane() {
        return soleReader != null ? soleReader : HostGate.SHARED;
    }

    public String host() {
        return url.getHost() == null ? "" : url.getHost().toLowerCase(java.util.Locale.ROOT);
    }
}
