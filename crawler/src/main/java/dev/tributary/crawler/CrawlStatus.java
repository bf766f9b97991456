package dev.tributary.crawler;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A feed's health as subscribers see it ({@code status}, {@code last_fetched_at},
 * {@code next_fetch_at}, {@code last_error} of the API's source).
 *
 * @param status {@code ok}, {@code error}, {@code gone} or {@code retired} (nobody read it for
 *     {@code tributary.crawler.retire-after}; a new subscriber brings it back)
 * @param nextFetchAt null once gone or retired
 * @param lastErrorKey the stable key of the last error (e.g. {@code timeout}), null when ok
 */
public record CrawlStatus(String status, @Nullable Instant lastFetchedAt, @Nullable Instant nextFetchAt,
        @Nullable String lastError, @Nullable String lastErrorKey, @Nullable Integer lastHttpStatus,
        boolean pushed) {
}
