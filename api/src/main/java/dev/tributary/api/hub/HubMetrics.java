package dev.tributary.api.hub;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * The hub's meters: requests, verifications and deliveries by outcome, the time from a change
 * being noticed to its delivery, and the backlog (subscriptions with content pending, and how
 * long the oldest has waited) as last sampled by {@link HubSweeper}. No topic url is ever a tag.
 */
@Component
class HubMetrics {

    private final MeterRegistry registry;
    private final Timer lag;
    private final AtomicReference<Subscribers.Backlog> backlog = new AtomicReference<>(new Subscribers.Backlog(0, 0, null));
    private volatile Instant sampledAt = Instant.EPOCH;

    HubMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.lag = Timer.builder("tributary.hub.delivery.lag").description("From a topic's change being noticed to its delivery")
                .publishPercentiles(0.5, 0.99).register(registry);
        Gauge.builder("tributary.hub.subscriptions", backlog, b -> b.get().subscriptions())
                .description("Verified WebSub subscriptions with a lease running").register(registry);
        Gauge.builder("tributary.hub.backlog", backlog, b -> b.get().pending())
                .description("Subscriptions with content waiting to be delivered").register(registry);
        Gauge.builder("tributary.hub.backlog.age", this, m -> m.oldestSeconds())
                .description("Seconds the oldest pending delivery has been due").baseUnit("seconds").register(registry);
    }

    /** {@code outcome}: accepted, or the problem key a request was refused with. */
    void request(String mode, String outcome) {
        Counter.builder("tributary.hub.requests").tag("mode", mode).tag("outcome", outcome).register(registry).increment();
    }

    /** {@code outcome}: verified, refused (not 2xx or a wrong echo), unreachable, not_served. */
    void verification(String outcome) {
        Counter.builder("tributary.hub.verifications").tag("outcome", outcome).register(registry).increment();
    }

    /** {@code outcome}: delivered, failed (tried again), given_up, gone (410: the subscription ends), denied. */
    void delivery(String outcome) {
        Counter.builder("tributary.hub.deliveries").tag("outcome", outcome).register(registry).increment();
    }

    void delivered(Duration sinceNoticed) {
        lag.record(sinceNoticed);
    }

    void sampled(Subscribers.Backlog now, Instant at) {
        backlog.set(now);
        sampledAt = at;
    }

    Subscribers.Backlog backlog() {
        return backlog.get();
    }

    Instant sampledAt() {
        return sampledAt;
    }

    double oldestSeconds() {
        Instant oldest = backlog.get().oldestDue();
        return oldest == null ? 0 : Math.max(0, Duration.between(oldest, sampledAt).toMillis() / 1000.0);
    }
}
