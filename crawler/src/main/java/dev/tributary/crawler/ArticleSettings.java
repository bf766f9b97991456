package dev.tributary.crawler;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Full articles fetched from entries' pages ({@code tributary.articles.*}). The SSRF guard,
 * connect timeout, redirects, user agent and {@code allow-private} are the crawler's own
 * ({@code tributary.crawler.*}); these bound what a page may cost.
 *
 * @param maxPageSize largest page accepted as sent (compressed); a larger one is refused unread
 *        past that many bytes ({@code too_large})
 * @param maxDecompressedSize largest page accepted once decompressed
 * @param timeout total time for a page: redirects, headers and body
 * @param maxStoredSize most bytes (UTF-8) of sanitised article HTML kept per item; a longer
 *        article is cut after its last whole block that fits, and ends with an ellipsis
 * @param keep how long a fetched article is kept (and served without fetching again)
 * @param retryAfter how long a failed fetch is remembered: readers asking meanwhile hear the same
 *        refusal without the page being fetched again
 * @param perPersonPerMinute article fetches one person may cause a minute (reads of a kept article
 *        are not counted), so that nobody can use the endpoint to make the crawler fetch fast
 * @param concurrency pages this node fetches at once for articles; past it a reader waits up to
 *        the timeout, then is told to try again ({@code timeout})
 * @param queue items waiting for their article to be fetched ahead of readers (sources marked
 *        "always fetch the full article"), per node; past it the newest wait for the next crawl
 */
@ConfigurationProperties("tributary.articles")
@Validated
public record ArticleSettings(
        @NotNull @DefaultValue("5MB") DataSize maxPageSize,
        @NotNull @DefaultValue("20MB") DataSize maxDecompressedSize,
        @NotNull @DefaultValue("15s") Duration timeout,
        @NotNull @DefaultValue("200KB") DataSize maxStoredSize,
        @NotNull @DefaultValue("30d") Duration keep,
        @NotNull @DefaultValue("10m") Duration retryAfter,
        @Min(1) @Max(10_000) @DefaultValue("10") int perPersonPerMinute,
        @Min(1) @Max(1024) @DefaultValue("8") int concurrency,
        @Min(1) @Max(1_000_000) @DefaultValue("10000") int queue) {

    public ArticleSettings {
        positive("timeout", timeout);
        positive("keep", keep);
        positive("retry-after", retryAfter);
        positiveSize("max-page-size", maxPageSize);
        positiveSize("max-decompressed-size", maxDecompressedSize);
        positiveSize("max-stored-size", maxStoredSize);
        if (maxPageSize != null && maxDecompressedSize != null && maxDecompressedSize.compareTo(maxPageSize) < 0) {
            throw new IllegalArgumentException("tributary.articles.max-decompressed-size must be at least max-page-size");
        }
        // The MEDIUMTEXT column holds 16 MB; a kept article is read whole into each answer.
        if (maxStoredSize != null && (maxStoredSize.toBytes() > 4L << 20 || maxStoredSize.toBytes() < 1024)) {
            throw new IllegalArgumentException("tributary.articles.max-stored-size must be between 1KB and 4MB, not " + maxStoredSize);
        }
    }

    private static void positive(String name, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException("tributary.articles." + name + " must be positive, not " + value);
        }
    }

    private static void positiveSize(String name, DataSize value) {
        if (value != null && value.toBytes() <= 0) {
            throw new IllegalArgumentException("tributary.articles." + name + " must be positive, not " + value);
        }
    }
}
