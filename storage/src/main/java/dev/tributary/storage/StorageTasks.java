package dev.tributary.storage;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.stereotype.Component;

/**
 * The storage module's own background threads (lease renewal, back-fill, cleaner, deferred indexes). Owned here
 * rather than exposed as a TaskScheduler bean, which would displace the application's.
 */
@Component
final class StorageTasks implements DisposableBean {

    private final ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();

    StorageTasks() {
        scheduler.setPoolSize(3);
        scheduler.setThreadNamePrefix("storage-");
        scheduler.setDaemon(true);
        scheduler.setWaitForTasksToCompleteOnShutdown(false);
        scheduler.setRemoveOnCancelPolicy(true);
        scheduler.initialize();
    }

    ScheduledFuture<?> every(Duration period, Runnable task) {
        return scheduler.scheduleWithFixedDelay(task, period);
    }

    ScheduledFuture<?> afterDelayEvery(Duration period, Runnable task) {
        return scheduler.scheduleWithFixedDelay(task, scheduler.getClock().instant().plus(period), period);
    }

    Future<?> submit(Runnable task) {
        return scheduler.submit(task);
    }

    @Override
    public void destroy() {
        // Interrupts running tasks; a back-fill stops between batches and resumes from its cursor.
        scheduler.shutdown();
    }
}
