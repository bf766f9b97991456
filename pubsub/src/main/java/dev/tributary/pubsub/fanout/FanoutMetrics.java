package dev.tributary.pubsub.fanout;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/** Fan-out's meters: lag and backlog (read from MySQL when scraped), inbox rows written and removed. */
@Component
class FanoutMetrics {

    private final Counter delivered;
    private final Counter retracted;

    FanoutMetrics(ObjectProvider<MeterRegistry> registries, FanoutTasks tasks) {
        MeterRegistry registry = registries.getIfAvailable(SimpleMeterRegistry::new);
        delivered = Counter.builder("tributary.fanout.rows").tag("kind", "deliver")
                .description("inbox rows written by fan-out").register(registry);
        retracted = Counter.builder("tributary.fanout.rows").tag("kind", "retract")
                .description("inbox rows removed by retractions").register(registry);
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
}
