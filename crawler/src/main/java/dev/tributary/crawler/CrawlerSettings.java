package dev.tributary.crawler;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
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
 * @param perHostConcurrency requests to one host (name and port) at once, per node, to start
 *        with: {@code politeness} adapts it to how the host answers
 * @param perHostDelay least time between the starts of two requests to one host, per node, to
 *        start with (adapted likewise)
 * @param maxXmlNodes most nodes (elements, attributes, text) an XML feed's tree may have; a larger
 *        document is refused ({@code too_many_nodes}) rather than parsed, so that 32 crawls at once stay in bounded heap
 * @param perAddressConcurrency requests to one resolved address (IP and port) at once, per
 *        node (to start with, adapted likewise), whatever names point there: wildcard names share one budget, and a host that
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
 * @param politeness how the per-host and per-address budgets adapt
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
        @NotNull @DefaultValue("7d") Duration websubLease,
        @Valid @NotNull @DefaultValue Politeness politeness) {

    /**
     * How politeness adapts ({@code tributary.crawler.politeness.*}), per node and in memory:
     * each host and address starts at {@code per-host-concurrency}, {@code per-host-delay} and
     * {@code per-address-concurrency}; a clean answer that is not slow halves the delay and adds
     * concurrency (one per answer until the first trouble, then one per window of answers), up
     * to the caps here; a 429/503, another 5xx, a timeout, a refused or broken connection, or an
     * answer {@code slow-factor} times slower than the host's usual halves the concurrency
     * (floor 1) and doubles the delay (at least to {@code per-host-delay}), once per window.
     *
     * @param maxPerHost most requests at once a host earns (at least {@code per-host-concurrency})
     * @param maxPerAddress most requests at once an address earns (at least {@code per-address-concurrency})
     * @param minDelay shortest the delay between starts shrinks to (at most {@code per-host-delay})
     * @param maxDelay longest it grows to after trouble (at least {@code per-host-delay})
     * @param slowFactor an answer this many times slower than the host's usual clean answer
     *        (and over a second) counts as trouble
     * @param remembered hosts (and, apart, addresses) whose pace a node keeps; the least recently
     *        used are forgotten first and start again from the configured pace
     * @param forgetAfter a host unused this long is forgotten (it starts again at the configured pace)
     * @param maxPause longest a {@code Retry-After} on a 429/503 pauses the whole host (the feed
     *        itself waits out all of it; 0: only the feed waits); at most {@code forget-after}
     */
    public record Politeness(
            @Min(1) @Max(1024) @DefaultValue("16") int maxPerHost,
            @Min(1) @Max(1024) @DefaultValue("32") int maxPerAddress,
            @NotNull @DefaultValue("0s") Duration minDelay,
            @NotNull @DefaultValue("1m") Duration maxDelay,
            @DecimalMin("1.5") @DecimalMax("100.0") @DefaultValue("4.0") double slowFactor,
            @Min(100) @Max(10_000_000) @DefaultValue("100000") int remembered,
            @NotNull @DefaultValue("10m") Duration forgetAfter,
            @NotNull @DefaultValue("10m") Duration maxPause) {

        public Politeness {
            if (minDelay != null && minDelay.isNegative()) {
                throw new IllegalArgumentException("tributary.crawler.politeness.min-delay must not be negative");
            }
            positive("politeness.forget-after", forgetAfter);
            if (maxPause != null && (maxPause.isNegative() || forgetAfter != null && maxPause.compareTo(forgetAfter) > 0)) {
                throw new IllegalArgumentException("tributary.crawler.politeness.max-pause (" + maxPause
                        + ") must be between 0 and forget-after (" + forgetAfter + ")");
            }
        }
    }

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
        if (politeness != null) {
            politenessFits(politeness, perHostConcurrency, perAddressConcurrency, perHostDelay);
        }
        if (maxBodySize != null && maxDecompressedSize != null && maxDecompressedSize.compareTo(maxBodySize) < 0) {
            throw new IllegalArgumentException("tributary.crawler.max-decompressed-size must be at least max-body-size");
        }
        allowPrivate = allowPrivate == null ? List.of()
                : allowPrivate.stream().map(String::strip).filter(range -> !range.isEmpty()).toList();
    }

    private static void politenessFits(Politeness politeness, int perHost, int perAddress, @Nullable Duration delay) {
        if (politeness.maxPerHost() < perHost) {
            throw new IllegalArgumentException("tributary.crawler.politeness.max-per-host (" + politeness.maxPerHost()
                    + ") must be at least per-host-concurrency (" + perHost + ")");
        }
        if (politeness.maxPerAddress() < perAddress) {
            throw new IllegalArgumentException("tributary.crawler.politeness.max-per-address (" + politeness.maxPerAddress()
                    + ") must be at least per-address-concurrency (" + perAddress + ")");
        }
        if (delay != null && politeness.minDelay() != null && politeness.minDelay().compareTo(delay) > 0) {
            throw new IllegalArgumentException("tributary.crawler.politeness.min-delay (" + politeness.minDelay()
                    + ") must not be longer than per-host-delay (" + delay + ")");
        }
        if (delay != null && politeness.maxDelay() != null && politeness.maxDelay().compareTo(delay) < 0) {
            throw new IllegalArgumentException("tributary.crawler.politeness.max-delay (" + politeness.maxDelay()
                    + ") must not be shorter than per-host-delay (" + delay + ")");
        }
    }

    private static void positive(String name, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException("tributary.crawler." + name + " must be positive, not " + value);
        }
    }
}
