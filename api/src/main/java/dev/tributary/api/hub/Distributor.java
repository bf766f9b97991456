package dev.tributary.api.hub;

import dev.tributary.api.export.FeedTopic;
import dev.tributary.api.export.FeedTopics;
import dev.tributary.api.export.TopicContent;
import dev.tributary.crawler.websub.HubSignature;
import dev.tributary.crawler.websub.SubscriberClient;
import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.Roles;
import dev.tributary.pubsub.Wakeup;
import dev.tributary.pubsub.Writes;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Content distribution (W3C WebSub 7): takes due deliveries from MySQL ({@code FOR UPDATE SKIP
 * LOCKED}, held for a while so any number of nodes share them), writes each topic's content once
 * per batch, and POSTs it to every callback with {@code Link: rel="hub"} and {@code rel="self"}
 * and, when the subscriber gave a secret, {@code X-Hub-Signature: sha256=}. A 2xx delivers; a 410
 * ends the subscription; anything else is tried again after a doubling wait, and given up after
 * {@code max-attempts} (the subscription stays, and the next change is sent). Runs on fan-out nodes.
 */
@Component
class Distributor implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Distributor.class);
    /** How long a node holds the deliveries it took: a node that stops holding them lets another take them then. */
    private static final Duration HOLD = Duration.ofMinutes(5);
    /** Deliveries due later (retries) are looked for at least this often. */
    private static final Duration IDLE = Duration.ofSeconds(1);

    private final Subscribers subscribers;
    private final FeedTopics feeds;
    private final SubscriberClient client;
    private final CallbackHosts hosts;
    private final Writes tx;
    private final HubSettings settings;
    private final HubMetrics metrics;
    private final boolean runs;
    private final Clock clock;
    private final Wakeup wakeup = new Wakeup();
    private final ExecutorService posts = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("hub-deliver-", 0).factory());
    private volatile boolean running;
    private Thread worker;

    Distributor(Subscribers subscribers, FeedTopics feeds, SubscriberClient client, CallbackHosts hosts, Writes tx,
            HubSettings settings, HubMetrics metrics, Roles roles, ObjectProvider<Clock> clock) {
        this.subscribers = subscribers;
        this.feeds = feeds;
        this.client = client;
        this.hosts = hosts;
        this.tx = tx;
        this.settings = settings;
        this.metrics = metrics;
        this.runs = settings.enabled() && roles.runs(FanoutSettings.ROLE);
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** Deliveries were just marked due on this node. */
    void wake() {
        wakeup.wake();
    }

    private void run() {
        while (running) {
            long mark = wakeup.mark();
            try {
                if (deliverDue() == 0) {
                    wakeup.await(mark, IDLE);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                log.warn("hub: delivering failed; trying again", e);
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException stop) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Takes one batch of due deliveries and makes them (waiting for all); returns how many were taken. */
    int deliverDue() throws InterruptedException {
        Instant now = clock.instant();
        List<Subscriber> due = tx.write("hub claim deliveries", () -> subscribers.claimDue(settings.batch(), now, HOLD));
        if (due.isEmpty()) {
            return 0;
        }
        Map<String, Optional<TopicContent>> contents = new HashMap<>();
        List<Future<?>> sent = new ArrayList<>(due.size());
        for (Subscriber subscriber : due) {
            Optional<TopicContent> content = contents.computeIfAbsent(subscriber.topicKey(),
                    key -> feeds.content(FeedTopic.of(key, subscriber.topicUrl())));
            sent.add(posts.submit(() -> {
                deliver(subscriber, content);
                return null;
            }));
        }
        for (Future<?> one : sent) {
            try {
                one.get();
            } catch (java.util.concurrent.ExecutionException e) {
                log.warn("hub: a delivery failed unexpectedly", e.getCause());
            }
        }
        return due.size();
    }

    private void deliver(Subscriber subscriber, Optional<TopicContent> content) throws InterruptedException {
        if (content.isEmpty()) {
            // No longer served: the topic watch ends the subscriptions; until then this waits.
            subscribers.failed(subscriber, clock.instant().plus(settings.retryBase()), "the topic is no longer served");
            return;
        }
        FeedTopic topic = FeedTopic.of(subscriber.topicKey(), subscriber.topicUrl());
        byte[] body = content.get().body();
        Map<String, String> headers = new HashMap<>();
        headers.put("Link", "<" + topic.hubUrl() + ">; rel=\"hub\", <" + subscriber.topicUrl() + ">; rel=\"self\"");
        if (subscriber.secret() != null) {
            headers.put("X-Hub-Signature", HubSignature.header("sha256", body, subscriber.secret()));
        }
        SubscriberClient.Answer answer = hosts.call(subscriber.callbackHost(),
                () -> client.post(URI.create(subscriber.callback()), content.get().contentType(), headers, body));
        Instant now = clock.instant();
        if (answer.accepted()) {
            subscribers.delivered(subscriber, now);
            metrics.delivery("delivered");
            if (subscriber.attempts() == 0 && subscriber.nextAttemptAt() != null) {
                metrics.delivered(Duration.between(subscriber.nextAttemptAt(), now));
            }
        } else if (answer.status() == 410) {
            subscribers.remove(subscriber.id());
            metrics.delivery("gone");
            log.info("hub: callback host {} answered 410 for {}: subscription ended", subscriber.callbackHost(),
                    subscriber.topicKey());
        } else if (subscriber.attempts() + 1 >= settings.maxAttempts()) {
            subscribers.failed(subscriber, null, answer.detail());
            metrics.delivery("given_up");
            log.info("hub: gave up delivering {} to callback host {} after {} tries ({})", subscriber.topicKey(),
                    subscriber.callbackHost(), subscriber.attempts() + 1, answer.detail());
        } else {
            subscribers.failed(subscriber, now.plus(settings.backoff(subscriber.attempts() + 1)), answer.detail());
            metrics.delivery("failed");
        }
    }

    @Override
    public void start() {
        if (!runs) {
            return;
        }
        running = true;
        worker = Thread.ofVirtual().name("hub-distributor").start(this::run);
    }

    @Override
    public void stop() {
        running = false;
        if (worker != null) {
            worker.interrupt();
        }
        posts.shutdownNow();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
