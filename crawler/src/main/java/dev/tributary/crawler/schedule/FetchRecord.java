package dev.tributary.crawler.schedule;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What to store after a fetch: the feed's health, validators for the next conditional GET and
 * when it is due again.
 *
 * @param url where to fetch it from now on (changed by a permanent redirect)
 * @param interval the feed's current refresh interval, before jitter and error backoff
 * @param nextFetchIn when it is due again (interval or backoff, with jitter)
 */
public record FetchRecord(
        CrawlStatusKind status,
        URI url,
        @Nullable String etag,
        @Nullable String lastModified,
        Duration interval,
        Duration nextFetchIn,
        int consecutiveErrors,
        @Nullable Integer httpStatus,
        @Nullable String errorKey,
        @Nullable String error) {

    public FetchRecord {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(nextFetchIn, "nextFetchIn");
    }
}
