package dev.tributary.crawler.refresh;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Crawl meters: fetch outcomes by stable key ({@code tributary.crawler.fetches}), time spent
 * fetching, parsing and publishing, and items found new.
 */
@Component
public class CrawlMetrics {

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Counter> outcomes = new ConcurrentHashMap<>();
    private final Timer fetch;
    private final Timer parse;
    private final Timer publish;
    private final Counter newItems;

    CrawlMetrics(ObjectProvider<MeterRegistry> registry) {
        this.registry = registry.getIfAvailable(io.micrometer.core.instrument.simple.SimpleMeterRegistry::new);
        this.fetch = Timer.builder("tributary.crawler.fetch").description("HTTP fetch of a feed, redirects and body included")
                .register(this.registry);
        this.parse = Timer.builder("tributary.crawler.parse").description("parsing and normalising a feed body")
                .register(this.registry);
        this.publish = Timer.builder("tributary.crawler.publish").description("publishing a feed's entries to pub/sub")
                .register(this.registry);
        this.newItems = Counter.builder("tributary.crawler.items.new").register(this.registry);
    }

    /** One fetch ended in {@code outcome} (ok, not_modified, or a failure key). */
    void outcome(String outcome) {
        outcomes.computeIfAbsent(outcome, key -> Counter.builder("tributary.crawler.fetches").tag("outcome", key)
                .description("feed fetches by outcome").register(registry)).increment();
    }

    void fetched(long nanos) {
        fetch.record(nanos, TimeUnit.NANOSECONDS);
    }

    void parsed(long nanos) {
        parse.record(nanos, TimeUnit.NANOSECONDS);
    }

    void published(int created, long nanos) {
        newItems.increment(created);
        publish.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Total seconds spent parsing so far (the benchmark reports its share of the crawl). */
    public double parseSeconds() {
        return parse.totalTime(TimeUnit.SECONDS);
    }

    public double fetchSeconds() {
        return fetch.totalTime(TimeUnit.SECONDS);
    }

    public double publishSeconds() {
        return publish.totalTime(TimeUnit.SECONDS);
    }

    /** Bodies parsed so far (a 304 parses none). */
    public long parses() {
        return parse.count();
    }

}
