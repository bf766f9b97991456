package dev.tributary.crawler.refresh;

import dev.tributary.crawler.ingest.IngestMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Crawl meters: fetch outcomes by stable key ({@code tributary.crawler.fetches}) and time spent
 * fetching. Parse and publish times are kept by {@link IngestMetrics} (subscribe-by-url and WebSub
 * ingest too) and read through here, so that a crawl's figures come from one place.
 */
@Component
public class CrawlMetrics {

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Counter> outcomes = new ConcurrentHashMap<>();
    private final Timer fetch;
    private final IngestMetrics ingest;
    private final Counter claims;
    private final Counter claimed;

    CrawlMetrics(ObjectProvider<MeterRegistry> registry, IngestMetrics ingest) {
        this.registry = registry.getIfAvailable(io.micrometer.core.instrument.simple.SimpleMeterRegistry::new);
        this.fetch = Timer.builder("tributary.crawler.fetch").description("HTTP fetch of a feed, redirects and body included")
                .register(this.registry);
        this.ingest = ingest;
        this.claims = Counter.builder("tributary.crawler.claims").description("claims of due feeds made by the crawl loop")
                .register(this.registry);
        this.claimed = Counter.builder("tributary.crawler.claimed").description("feeds those claims leased")
                .register(this.registry);
    }

    /** The crawl loop claimed {@code feeds} due feeds (perhaps none) in one claim. */
    void claimed(int feeds) {
        claims.increment();
        claimed.increment(feeds);
    }

    /** Claims made so far (the benchmark counts them). */
    public long claims() {
        return (long) claims.count();
    }

    /** Feeds claimed so far, handed back ones included. */
    public long claimedFeeds() {
        return (long) claimed.count();
    }

    /** Feeds handed back unfetched so far because their host or address was busy. */
    public long deferrals() {
        Counter deferred = outcomes.get("deferred");
        return deferred == null ? 0 : (long) deferred.count();
    }

    /** One fetch ended in {@code outcome} (ok, not_modified, or a failure key). */
    void outcome(String outcome) {
        outcomes.computeIfAbsent(outcome, key -> Counter.builder("tributary.crawler.fetches").tag("outcome", key)
                .description("feed fetches by outcome").register(registry)).increment();
    }

    /** A claimed feed was handed back unfetched: its host or address was busy. */
    void deferred() {
        outcome("deferred");
    }

    void fetched(long nanos) {
        fetch.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Total seconds spent parsing so far (the benchmark reports its share of the crawl). */
    public double parseSeconds() {
        return ingest.parseSeconds();
    }

    public double fetchSeconds() {
        return fetch.totalTime(TimeUnit.SECONDS);
    }

    public double publishSeconds() {
        return ingest.publishSeconds();
    }

    /** Bodies parsed so far (a 304 parses none). */
    public long parses() {
        return ingest.parses();
    }

}
