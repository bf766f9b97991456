package dev.tributary.api.retention;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.Roles;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs every {@link RetentionJob} at its own period on nodes with the {@code fanout} role (the
 * role that already owns background upkeep of shared tables, like inbox trimming). Sweeps are
 * idempotent deletes, so two such nodes sweeping at once only repeat each other's work. Each
 * job counts what it removed in {@code tributary.retention.removed{job=…}}.
 */
@Component
@EnableConfigurationProperties(RetentionSettings.class)
class RetentionJobs implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RetentionJobs.class);

    private final List<RetentionJob> jobs;
    private final MeterRegistry registry;
    private final boolean enabled;
    private ScheduledExecutorService scheduler;

    RetentionJobs(List<RetentionJob> jobs, RetentionSettings settings, Roles roles, ObjectProvider<MeterRegistry> registries) {
        this.jobs = List.copyOf(jobs);
        this.registry = registries.getIfAvailable(SimpleMeterRegistry::new);
        this.enabled = settings.enabled() && roles.runs(FanoutSettings.ROLE);
        this.jobs.forEach(this::removed);
    }

    /** Runs one job's sweep now and counts it; the number of rows removed. */
    long sweep(RetentionJob job) {
        Counter removed = removed(job);
        long total = job.sweep(count -> removed.increment(count));
        if (total > 0) {
            log.info("retention {}: removed {}", job.name(), total);
        }
        return total;
    }

    private Counter removed(RetentionJob job) {
        return Counter.builder("tributary.retention.removed").tag("job", job.name())
                .description("rows removed by a retention job").register(registry);
    }

    private void sweepQuietly(RetentionJob job) {
        try {
            sweep(job);
        } catch (RuntimeException e) {
            log.warn("retention {} failed: {}", job.name(), e.toString(), e);
        }
    }

    @Override
    public void start() {
        if (!enabled || jobs.isEmpty()) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("retention").daemon(true).factory());
        for (RetentionJob job : jobs) {
            long period = job.every().toMillis();
            scheduler.scheduleWithFixedDelay(() -> sweepQuietly(job), period, period, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }
}
