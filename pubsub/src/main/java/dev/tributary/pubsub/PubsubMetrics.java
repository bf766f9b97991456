package dev.tributary.pubsub;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The pub/sub meters: fan-out lag and backlog (read from MySQL when scraped), inbox rows written
 * and removed, unread-counter rebuilds, and home timeline page latency.
 */
@Component
class PubsubMetrics {

    private final Counter delivered;
    private final Counter retracted;
    private final Counter rebuilds;
    private final Timer timelinePages;

    PubsubMetrics(ObjectProvider<MeterRegistry> registries, FanoutTasks tasks) {
        MeterRegistry registry = registries.getIfAvailable(SimpleMeterRegistry::new);
        delivered = Counter.builder("tributary.fanout.rows").tag("kind", "deliver")
                .description("inbox rows written by fan-out").register(registry);
        retracted = Counter.builder("tributary.fanout.rows").tag("kind", "retract")
                .description("inbox rows removed by retractions").register(registry);
        rebuilds = Counter.builder("tributary.unread.rebuilds")
                .description("unread counters rebuilt from MySQL (Redis had lost or invalidated them)").register(registry);
        timelinePages = Timer.builder("tributary.timeline.page").description("home timeline page queries")
                .publishPercentiles(0.5, 0.99).register(registry);
        Gauge.builder("tributary.fanout.lag", tasks, FanoutTasks::oldestAgeSeconds).baseUnit("seconds")
                .description("age of the oldest unfinished fan-out task").register(registry);
        Gauge.builder("tributary.fanout.pending", tasks, FanoutTasks::pending)
                .description("unfinished fan-out tasks").register(registry);
    }

    void rowsDelivered(int rows) {
        delivered.increment(rows);
    }

    void rowsRetracted(int rows) {
        retracted.increment(rows);
    }

    void counterRebuilt() {
        rebuilds.increment();
    }

    Timer timelinePages() {
        return timelinePages;
    }
}
