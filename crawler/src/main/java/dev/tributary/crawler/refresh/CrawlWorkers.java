package dev.tributary.crawler.refresh;

import dev.tributary.crawler.CrawlerSettings;
import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.pubsub.Roles;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * This node's crawl loop (nodes with the {@code crawler} role): claims due feeds from MySQL as
 * fetch slots free up ({@code tributary.crawler.concurrency}) and refreshes each on a virtual
 * thread. Any number of nodes share the work through the claims' leases.
 */
@Component
public class CrawlWorkers implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CrawlWorkers.class);

    private final CrawlStates states;
    private final FeedRefresher refresher;
    private final CrawlerSettings settings;
    private final int concurrency;
    private final String owner;
    private final Semaphore slots;
    private final Semaphore wakeups = new Semaphore(0);
    private final AtomicLong refreshed = new AtomicLong();
    private volatile boolean running;
    private Thread loop;
    private ExecutorService executor;

    private final CrawlMetrics metrics;

    CrawlWorkers(CrawlStates states, FeedRefresher refresher, CrawlerSettings settings, Roles roles,
            CrawlMetrics metrics) {
        this.states = states;
        this.metrics = metrics;
        this.refresher = refresher;
        this.settings = settings;
        this.concurrency = roles.runs(CrawlerSettings.ROLE) ? settings.concurrency() : 0;
        this.slots = new Semaphore(concurrency);
        String node = ManagementFactory.getRuntimeMXBean().getName() + "/crawl";
        this.owner = node.length() <= 64 ? node : node.substring(node.length() - 64);
    }

    /** Feeds this node has refreshed (whatever the outcome). */
    public long refreshed() {
        return refreshed.get();
    }

    @Override
    public void start() {
        running = true;
        if (concurrency == 0) {
            return;
        }
        executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("crawl-", 0).factory());
        loop = Thread.ofPlatform().name("crawl-scheduler").daemon(true).start(this::loop);
        log.info("crawler: {} feeds at once; per host {} at once every {} to start, adapting up to {}; per address {} up to {}",
                concurrency, settings.perHostConcurrency(), settings.perHostDelay(), settings.politeness().maxPerHost(),
                settings.perAddressConcurrency(), settings.politeness().maxPerAddress());
    }

    @Override
    public void stop() {
        running = false;
        wakeups.release();
        if (loop == null) {
            return;
        }
        try {
            loop.join(Duration.ofSeconds(5));
            executor.shutdown();
            // A fetch left running keeps its lease; another node retakes the feed when it expires.
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loop = null;
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

    private void loop() {
        while (running) {
            try {
                int free = slots.availablePermits();
                List<CrawlState> claimed = free == 0 ? List.of() : states.claimDue(owner, free, settings.leaseTtl());
                if (free > 0) {
                    metrics.claimed(claimed.size());
                }
                for (CrawlState state : claimed) {
                    slots.acquire();
                    executor.execute(() -> refresh(state));
                }
                if (claimed.size() < free || free == 0) {
                    // Nothing more due (or no free slot): wait for a slot to free up or the poll interval.
                    wakeups.tryAcquire(settings.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
                    wakeups.drainPermits();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                log.warn("crawl loop: {}; retrying after {}", e.toString(), settings.pollInterval(), e);
                sleepQuietly(settings.pollInterval());
            }
        }
    }

    private void refresh(CrawlState state) {
        try {
            refresher.refresh(state);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // A bug or the database: the lease runs out and the feed is retried then.
            log.warn("feed {} {}: refresh failed: {}", state.sourceId(), state.url(), e.toString(), e);
        } finally {
            refreshed.incrementAndGet();
            slots.release();
            wakeups.release();
        }
    }

    private static void sleepQuietly(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
