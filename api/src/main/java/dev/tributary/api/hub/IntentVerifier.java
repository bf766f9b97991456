package dev.tributary.api.hub;

import dev.tributary.api.export.FeedTopic;
import dev.tributary.api.export.FeedTopics;
import dev.tributary.api.export.TopicContent;
import dev.tributary.crawler.websub.SubscriberClient;
import dev.tributary.pubsub.Writes;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Verification of intent (W3C WebSub 5.3): a {@code GET} to the callback with a random
 * {@code hub.challenge}, which only a 2xx echoing it exactly confirms; then the subscription is
 * made (or renewed) or removed. Anything else (another status, a wrong echo, no answer in the
 * fetcher's timeout, an address the SSRF guard refuses) drops the request. Also sends the
 * {@code hub.mode=denied} notice when the hub ends subscriptions of a topic it no longer serves.
 */
@Component
class IntentVerifier implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(IntentVerifier.class);

    private final Intents intents;
    private final Subscribers subscribers;
    private final Topics topics;
    private final FeedTopics feeds;
    private final SubscriberClient client;
    private final CallbackHosts hosts;
    private final TopicWatch watch;
    private final Writes tx;
    private final HubMetrics metrics;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final ExecutorService verifications = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("hub-verify-", 0).factory());

    IntentVerifier(Intents intents, Subscribers subscribers, Topics topics, FeedTopics feeds, SubscriberClient client,
            CallbackHosts hosts, TopicWatch watch, Writes tx, HubMetrics metrics, ObjectProvider<Clock> clock) {
        this.intents = intents;
        this.subscribers = subscribers;
        this.topics = topics;
        this.feeds = feeds;
        this.client = client;
        this.hosts = hosts;
        this.watch = watch;
        this.tx = tx;
        this.metrics = metrics;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** Verifies the intent on a thread of its own (the request was answered 202). */
    void verifyLater(long intentId) {
        verifications.submit(() -> {
            try {
                verify(intentId);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log.warn("hub: verification of request {} failed", intentId, e);
                intents.remove(intentId);
            }
        });
    }

    /** Verifies one intent now; package-visible for tests. */
    void verify(long intentId) throws InterruptedException {
        Optional<Intent> found = intents.find(intentId);
        if (found.isEmpty()) {
            return;
        }
        Intent intent = found.get();
        String challenge = HexFormat.of().formatHex(bytes(24));
        Map<String, String> query = new LinkedHashMap<>();
        query.put("hub.mode", intent.mode().wire());
        query.put("hub.topic", intent.topicUrl());
        query.put("hub.challenge", challenge);
        if (intent.mode() == Intent.Mode.SUBSCRIBE) {
            query.put("hub.lease_seconds", Integer.toString(intent.leaseSeconds()));
        }
        SubscriberClient.Answer answer = hosts.call(intent.callbackHost(), () -> client.get(withQuery(intent.callback(), query)));
        if (!answer.accepted() || !challenge.equals(new String(answer.body(), StandardCharsets.UTF_8))) {
            intents.remove(intentId);
            metrics.verification(answer.status() == 0 ? "unreachable" : "refused");
            log.info("hub: {} request for {} not confirmed by callback host {} ({})", intent.mode().wire(), intent.topicKey(),
                    intent.callbackHost(), answer.accepted() ? "wrong challenge echoed" : answer.detail());
            return;
        }
        if (intent.mode() == Intent.Mode.UNSUBSCRIBE) {
            tx.run("hub unsubscribe", () -> {
                subscribers.remove(intent.topicKey(), intent.callback());
                intents.remove(intentId);
            });
            metrics.verification("verified");
            return;
        }
        FeedTopic topic = FeedTopic.of(intent.topicKey(), intent.topicUrl());
        // Listen first: a change after the content read below is then noticed.
        watch.listen(topic);
        String etag = null;
        if (!topics.known(topic.key())) {
            Optional<TopicContent> content = feeds.content(topic);
            if (content.isEmpty()) {
                intents.remove(intentId);
                metrics.verification("not_served");
                return;
            }
            etag = content.get().etag();
        }
        Instant now = clock.instant();
        String seen = etag;
        tx.run("hub subscribe", () -> {
            subscribers.upsert(topic.key(), topic.url(), intent.callback(), intent.callbackHost(), topic.ownerId(),
                    intent.secret(), now.plusSeconds(intent.leaseSeconds()), now);
            topics.watch(topic, seen, now);
            intents.remove(intentId);
        });
        metrics.verification("verified");
        log.info("hub: callback host {} subscribed to {} for {} s", intent.callbackHost(), topic.key(), intent.leaseSeconds());
    }

    /** Tells a subscriber its subscription was ended by the hub (WebSub 5.2); one try, the answer does not matter. */
    void deny(Subscriber subscriber, String reason) throws InterruptedException {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("hub.mode", "denied");
        query.put("hub.topic", subscriber.topicUrl());
        query.put("hub.reason", reason);
        hosts.call(subscriber.callbackHost(), () -> client.get(withQuery(subscriber.callback(), query)));
        metrics.delivery("denied");
    }

    /** The callback with the hub's parameters added to any query it has of its own (WebSub: it MAY have one). */
    static URI withQuery(String callback, Map<String, String> params) {
        StringBuilder url = new StringBuilder(callback);
        char separator = callback.indexOf('?') < 0 ? '?' : '&';
        for (Map.Entry<String, String> param : params.entrySet()) {
            url.append(separator).append(param.getKey()).append('=')
                    .append(URLEncoder.encode(param.getValue(), StandardCharsets.UTF_8));
            separator = '&';
        }
        return URI.create(url.toString());
    }

    private byte[] bytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }

    @Override
    public void destroy() {
        verifications.shutdownNow();
    }
}
