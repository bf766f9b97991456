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
            List<FanoutTask> claimed = worker.claim("test", 100);
            claimed.forEach(task -> worker.run(task, () -> true));
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

    public FanoutWorker.Batch batch(FanoutTask task) {
        return worker.runBatch(task);
    }

    public void run(FanoutTask task, BooleanSupplier keepGoing) {
        worker.run(task, keepGoing);
    }

    public long pending() {
        return tasks.pending();
    }
}
