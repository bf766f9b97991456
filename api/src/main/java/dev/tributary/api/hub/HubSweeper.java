package dev.tributary.api.hub;

import dev.tributary.crawler.CrawlerSettings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Keeps the hub's tables to what is live: subscriptions whose lease ended (WebSub 5: the
 * subscriber must renew), requests no verification finished (their node stopped), topics nobody
 * subscribes to; and samples the backlog for metrics, health and the total cap. Every node runs it
 * (each sweep is a few bounded deletes any node may make).
 */
@Component
class HubSweeper implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(HubSweeper.class);
    private static final Duration EVERY = Duration.ofSeconds(10);

    private final Subscribers subscribers;
    private final Intents intents;
    private final Topics topics;
    private final HubMetrics metrics;
    /** A verification takes at most the fetcher's timeout (and a wait for its host's slot): past this one is abandoned. */
    private final Duration intentTimeout;
    private final Clock clock;
    private ScheduledExecutorService timer;

    HubSweeper(Subscribers subscribers, Intents intents, Topics topics, HubMetrics metrics, CrawlerSettings crawler,
            ObjectProvider<Clock> clock) {
        this.subscribers = subscribers;
        this.intents = intents;
        this.topics = topics;
        this.metrics = metrics;
        this.intentTimeout = crawler.timeout().multipliedBy(4).plusMinutes(5);
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** One sweep; package-visible for tests. */
    void sweep() {
        Instant now = clock.instant();
        int expired = subscribers.removeExpired(now);
        int abandoned = intents.removeOlderThan(now.minus(intentTimeout));
        int orphaned = topics.removeUnsubscribed();
        if (expired + abandoned + orphaned > 0) {
            log.info("hub: {} subscriptions expired, {} unverified requests abandoned, {} topics unwatched", expired, abandoned,
                    orphaned);
        }
        metrics.sampled(subscribers.backlog(now), now);
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("hub-sweeper").factory());
        timer.scheduleWithFixedDelay(() -> {
            try {
                sweep();
            } catch (RuntimeException e) {
                log.warn("hub: sweep failed", e);
            }
        }, 0, EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
