package dev.tributary.pubsub.inbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/** The inbox's meters: unread-counter rebuilds, folds and promotions, and home timeline page latency. */
@Component
class InboxMetrics {

    private final Counter rebuilds;
    private final Counter folds;
    private final Counter promotions;
    private final Timer timelinePages;

    InboxMetrics(ObjectProvider<MeterRegistry> registries) {
        MeterRegistry registry = registries.getIfAvailable(SimpleMeterRegistry::new);
        rebuilds = Counter.builder("tributary.unread.rebuilds")
                .description("unread counters rebuilt from MySQL (Redis had lost or invalidated them)").register(registry);
        folds = Counter.builder("tributary.unread.folds")
                .description("unread counters moved up to the count horizon on a read").register(registry);
        promotions = Counter.builder("tributary.unread.promotions")
                .description("people promoted on a read: fan-out moves their counters whatever the item").register(registry);
        timelinePages = Timer.builder("tributary.timeline.page").description("home timeline page queries")
                .publishPercentiles(0.5, 0.99).register(registry);
    }

    void counterRebuilt() {
        rebuilds.increment();
    }

    void counterFolded() {
        folds.increment();
    }

    void counterPromoted() {
        promotions.increment();
    }

    Timer timelinePages() {
        return timelinePages;
    }
}
