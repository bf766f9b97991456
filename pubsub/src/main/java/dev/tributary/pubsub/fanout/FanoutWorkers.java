package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.storage.NodeRoles;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * This node's pool of fan-out worker threads ({@code tributary.fanout.workers}, none unless the
 * node has the {@code fanout} role). Each claims due
 * tasks from MySQL, so any number of pools on any number of nodes share the work. An idle worker
 * sleeps until a local publish wakes it or the poll interval passes (for other nodes' tasks).
 */
@Component
class FanoutWorkers implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FanoutWorkers.class);

    private final FanoutWorker worker;
    private final FanoutSignal signal;
    private final FanoutSettings settings;
    private final String nodeName;
    private final int poolSize;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong tasksRun = new AtomicLong();
    private volatile boolean running;

    FanoutWorkers(FanoutWorker worker, FanoutSignal signal, FanoutSettings settings, NodeRoles roles) {
        this.worker = worker;
        this.signal = signal;
        this.settings = settings;
        this.poolSize = roles.runs(FanoutSettings.ROLE) ? settings.workers() : 0;
        this.nodeName = ManagementFactory.getRuntimeMXBean().getName();
    }

    /** Tasks this pool has run (to the end, or until it lost or handed back the lease). */
    long tasksRun() {
        return tasksRun.get();
    }

    @Override
    public void start() {
        running = true;
        for (int i = 0; i < poolSize; i++) {
            String owner = truncate(nodeName + "/fanout-" + i);
            Thread thread = Thread.ofPlatform().name("fanout-" + i).daemon(true).unstarted(() -> loop(owner));
            threads.add(thread);
            thread.start();
        }
        if (!threads.isEmpty()) {
            log.info("fan-out: {} workers, batches of {}, lease {}", threads.size(), settings.batchSize(), settings.leaseTtl());
        }
    }

    @Override
    public void stop() {
        running = false;
        signal.wake();
        for (Thread thread : threads) {
            try {
                // A worker finishes its current batch and hands its task back.
                thread.join(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        threads.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        // Stop before the web server and the connection pool, start after them.
        return Integer.MAX_VALUE - 2048;
    }

    private void loop(String owner) {
        while (running) {
            long seen = signal.mark();
            try {
                List<FanoutTask> claimed = worker.claimGroup(owner, settings.claimSize());
                for (List<FanoutTask> group : FanoutWorker.groups(claimed)) {
                    worker.run(group, () -> running);
                    tasksRun.addAndGet(group.size());
                }
                if (claimed.isEmpty()) {
                    idle(seen);
                }
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                log.warn("fan-out worker {}: {}; retrying after {}", owner, e.toString(), settings.pollInterval(), e);
                idle(seen);
            }
        }
    }

    /** Sleeps up to the poll interval, unless a wake-up came since {@code seen}. */
    private void idle(long seen) {
        try {
            signal.await(seen, settings.pollInterval(), () -> running);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private static String truncate(String owner) {
        return owner.length() <= 64 ? owner : owner.substring(owner.length() - 64);
    }
}
