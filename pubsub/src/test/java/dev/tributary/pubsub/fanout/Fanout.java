package dev.tributary.pubsub.fanout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.springframework.stereotype.Component;

/** Test driver of fan-out: runs due tasks on the calling thread, as a worker would. */
@Component
public class Fanout {

    private final FanoutWorker worker;
    private final FanoutTasks tasks;

    Fanout(FanoutWorker worker, FanoutTasks tasks) {
        this.worker = worker;
        this.tasks = tasks;
    }

    /** Runs tasks until none is left, waiting out leases of abandoned ones (bounded by {@code timeout}). */
    public void drain(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (tasks.pending() > 0) {
            // As the pools claim and run: one group of tasks that run together at a time.
            List<FanoutTask> claimed = worker.claimGroup("test", 100);
            FanoutWorker.groups(claimed).forEach(group -> worker.run(group, () -> true));
            if (claimed.isEmpty()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("fan-out tasks still pending after " + timeout);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }

    public void drain() {
        drain(Duration.ofSeconds(30));
    }

    public List<FanoutTask> claim(int limit) {
        return worker.claim("test-crashing", limit);
    }

    public List<FanoutTask> claimGroup(int limit) {
        return worker.claimGroup("test-crashing", limit);
    }

    public FanoutWorker.Batch batch(List<FanoutTask> group) {
        return worker.runBatch(group);
    }

    public FanoutWorker.Batch batch(FanoutTask task) {
        return worker.runBatch(task);
    }

    public void runGroup(List<FanoutTask> group) {
        worker.run(group, () -> true);
    }

    public void run(FanoutTask task, BooleanSupplier keepGoing) {
        worker.run(task, keepGoing);
    }

    public long pending() {
        return tasks.pending();
    }
}
