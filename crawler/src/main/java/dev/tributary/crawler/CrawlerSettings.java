package dev.tributary.crawler;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the crawler ({@code tributary.crawler.*}).
 *
 * @param concurrency feeds this node fetches at once (0: the node crawls nothing, though it still
 *        resolves urls for subscriptions)
 * @param pollInterval how often an idle crawler looks for due feeds
 * @param leaseTtl how long a claimed feed stays this node's; must outlast a fetch with its
 *        politeness wait, or another node fetches the feed again
 * @param minInterval shortest time between two fetches of one feed, whatever it asks for
 * @param maxInterval longest time between two fetches of one feed (also the poll interval of a
 *        feed delivered by WebSub)
 * @param errorBackoffCap longest wait after repeated errors
 * @param jitter the fraction (0..0.5) by which every next fetch time is spread at random
 * @param connectTimeout TCP connect timeout
 * @param timeout total time for a fetch: redirects, headers and body
 * @param maxRedirects redirects followed per fetch
 * @param maxBodySize largest body accepted as sent (compressed)
 * @param maxDecompressedSize largest body accepted once decompressed
 * @param userAgent sent with every request
 * @param allowPrivate CIDR ranges the SSRF guard lets through although loopback or private
 *        (comma-separated; empty: none), for tests and intranet deployments
 * @param perHostConcurrency requests to one host (name and port) at once, per node
 * @param perHostDelay least time between the starts of two requests to one host, per node
 * @param maxXmlNodes most nodes (elements, attributes, text) an XML feed's tree may have; a larger
 *        document is refused ({@code too_many_nodes}) rather than parsed, so that 32 crawls at once stay in bounded heap
 * @param perAddressConcurrency requests to one resolved address (IP and port) at once, per
 *        node, whatever names point there: wildcard names share one budget, and a host that
 *        never answers holds at most this many of the node's slots
 * @param retireAfter how long a feed nobody reads (no subscriber, no profile attaching it) is
 *        kept before it is retired; it is not fetched meanwhile, and a new reader brings it back
 * @param newShare the share (0..1) of a claim's free slots kept for never-fetched feeds when
 *        known feeds are due as well: an import of thousands is crawled beside everyone
 *        else's feeds, not ahead of them
 * @param resolveConcurrency subscribe-by-url fetches at once, per node (beyond these a
 *        subscriber waits up to the fetch timeout, then is told to try again)
 * @param summaryLength longest summary kept per item, in characters of text
 * @param websubLease lease asked of WebSub hubs
 */
@ConfigurationProperties("tributary.crawler")
@Validated
public record CrawlerSettings(
        @Min(0) @Max(1024) @DefaultValue("32") int concurrency,
        @NotNull @DefaultValue("2s") Duration pollInterval,
        @NotNull @DefaultValue("2m") Duration leaseTtl,
        @NotNull @DefaultValue("5m") Duration minInterval,
        @NotNull @DefaultValue("24h") Duration maxInterval,
        @NotNull @DefaultValue("24h") Duration errorBackoffCap,
        @DecimalMin("0.0") @DecimalMax("0.5") @DefaultValue("0.1") double jitter,
        @NotNull @DefaultValue("10s") Duration connectTimeout,
        @NotNull @DefaultValue("30s") Duration timeout,
        @Min(0) @Max(20) @DefaultValue("5") int maxRedirects,
        @NotNull @DefaultValue("10MB") DataSize maxBodySize,
        @NotNull @DefaultValue("20MB") DataSize maxDecompressedSize,
        @NotBlank @DefaultValue("Tributary/0.1 (+https://github.com/tributary/tributary; feed fetcher)") String userAgent,
        @NotNull @DefaultValue("") List<String> allowPrivate,
        @Min(1) @Max(1024) @DefaultValue("2") int perHostConcurrency,
        @NotNull @DefaultValue("1s") Duration perHostDelay,
        @Min(1000) @Max(10_000_000) @DefaultValue("500000") int maxXmlNodes,
        @Min(1) @Max(1024) @DefaultValue("4") int perAddressConcurrency,
        @NotNull @DefaultValue("30d") Duration retireAfter,
        @DecimalMin("0.0") @DecimalMax("1.0") @DefaultValue("0.25") double newShare,
        @Min(1) @Max(1024) @DefaultValue("16") int resolveConcurrency,
        @Min(50) @Max(100_000) @DefaultValue("1000") int summaryLength,
        @NotNull @DefaultValue("7d") Duration websubLease) {

    /** The node role ({@code tributary.roles}) under which crawl workers run. */
    public static final String ROLE = "crawler";

    public CrawlerSettings {
        positive("poll-interval", pollInterval);
        positive("connect-timeout", connectTimeout);
        positive("timeout", timeout);
        positive("min-interval", minInterval);
        positive("websub-lease", websubLease);
        positive("retire-after", retireAfter);
        if (minInterval != null && maxInterval != null && maxInterval.compareTo(minInterval) < 0) {
            throw new IllegalArgumentException("tributary.crawler.max-interval (" + maxInterval
                    + ") must not be shorter than min-interval (" + minInterval + ")");
        }
        if (errorBackoffCap != null && minInterval != null && errorBackoffCap.compareTo(minInterval) < 0) {
            throw new IllegalArgumentException("tributary.crawler.error-backoff-cap (" + errorBackoffCap
                    + ") must not be shorter than min-interval (" + minInterval + ")");
        }
        if (leaseTtl != null && timeout != null && leaseTtl.compareTo(timeout) <= 0) {
            throw new IllegalArgumentException("tributary.crawler.lease-ttl (" + leaseTtl
                    + ") must be longer than the fetch timeout (" + timeout + ")");
        }
        if (perHostDelay != null && perHostDelay.isNegative()) {
            throw new IllegalArgumentException("tributary.crawler.per-host-delay must not be negative");
        }
        if (maxBodySize != null && maxDecompressedSize != null && maxDecompressedSize.compareTo(maxBodySize) < 0) {
            throw new IllegalArgumentException("tributary.crawler.max-decompressed-size must be at least max-body-size");
        }
        allowPrivate = allowPrivate == null ? List.of()
                : allowPrivate.stream().map(String::strip).filter(range -> !range.isEmpty()).toList();
    }

    private static void positive(String name, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException("tributary.crawler." + name + " must be positive, not " + value);
        }
    }
}
