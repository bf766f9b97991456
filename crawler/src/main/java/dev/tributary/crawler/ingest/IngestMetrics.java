package dev.tributary.crawler.ingest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/** Ingest meters: time spent parsing and publishing feed bodies, and items found new. */
@Component
public class IngestMetrics {

    private final Timer parse;
    private final Timer publish;
    private final Counter newItems;

    IngestMetrics(ObjectProvider<MeterRegistry> registry) {
        MeterRegistry meters = registry.getIfAvailable(SimpleMeterRegistry::new);
        this.parse = Timer.builder("tributary.crawler.parse").description("parsing and normalising a feed body")
                .register(meters);
        this.publish = Timer.builder("tributary.crawler.publish").description("publishing a feed's entries to pub/sub")
                .register(meters);
        this.newItems = Counter.builder("tributary.crawler.items.new").register(meters);
    }

    void parsed(long nanos) {
        parse.record(nanos, TimeUnit.NANOSECONDS);
    }

    void published(int created, long nanos) {
        newItems.increment(created);
        publish.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Total seconds spent parsing so far. */
    public double parseSeconds() {
        return parse.totalTime(TimeUnit.SECONDS);
    }

    public double publishSeconds() {
        return publish.totalTime(TimeUnit.SECONDS);
    }

    /** Bodies parsed so far. */
    public long parses() {
        return parse.count();
    }
}
