package dev.tributary.storage.embedded;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;

/**
 * Checks the embedded servers at a fixed period on a daemon thread of its own and has a dead one
 * started again: a killed Redis or MariaDB would otherwise leave the node answering 503 for good.
 */
final class EmbeddedSupervisor {

    private final ScheduledExecutorService timer;

    private EmbeddedSupervisor(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    static EmbeddedSupervisor start(Duration period, Consumer<Log> round, Log log) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "embedded-servers-supervisor");
            thread.setDaemon(true);
            return thread;
        });
        long millis = Math.max(100, period.toMillis());
        timer.scheduleWithFixedDelay(() -> {
            try {
                round.accept(log);
            } catch (RuntimeException e) {
                // The next round tries again; a failure here must not end the schedule.
                log.error("Could not restart an embedded server: " + e.getMessage(), e);
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
        return new EmbeddedSupervisor(timer);
    }

    void stop() {
        timer.shutdownNow();
    }
}
