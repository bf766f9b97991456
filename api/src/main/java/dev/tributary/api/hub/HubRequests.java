package dev.tributary.api.hub;

import dev.tributary.api.export.FeedTopic;
import dev.tributary.api.export.FeedTopics;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.crawler.websub.SubscriberClient;
import dev.tributary.pubsub.Writes;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Collection;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * A subscriber's request to the hub (W3C WebSub 5.1): checked at once (a 4xx names what is
 * wrong), within the caps, recorded, and verified with the callback after the 202.
 */
@Service
class HubRequests {

    private static final Logger log = LoggerFactory.getLogger(HubRequests.class);
    /** WebSub 5.1: "hub.secret ... MUST be less than 200 bytes". */
    static final int MAX_SECRET_BYTES = 199;
    static final int MAX_URL_LENGTH = 2048;

    private final FeedTopics topics;
    private final Intents intents;
    private final Subscribers subscribers;
    private final SubscriberClient client;
    private final IntentVerifier verifier;
    private final Writes tx;
    private final HubSettings settings;
    private final HubMetrics metrics;
    private final Clock clock;

    HubRequests(FeedTopics topics, Intents intents, Subscribers subscribers, SubscriberClient client, IntentVerifier verifier,
            Writes tx, HubSettings settings, HubMetrics metrics, ObjectProvider<Clock> clock) {
        this.topics = topics;
        this.intents = intents;
        this.subscribers = subscribers;
        this.client = client;
        this.verifier = verifier;
        this.tx = tx;
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Accepts a request (the caller answers 202) or throws the problem that refuses it.
     *
     * @param bases the roots a topic of this deployment may be named under (the public url, the request's own)
     */
    void accept(@Nullable String mode, @Nullable String topicUrl, @Nullable String callbackUrl, @Nullable String leaseSeconds,
            @Nullable String secret, Collection<String> bases) throws InterruptedException {
        String modeName = mode == null ? "none" : mode.length() > 20 ? "other" : mode;
        try {
            Intent.Mode parsed = mode(mode);
            modeName = parsed.wire();
            URI callback = callback(callbackUrl);
            Long lease = lease(leaseSeconds);
            String secretValue = secret(secret);
            if (topicUrl == null || topicUrl.isEmpty()) {
                throw ApiProblem.invalid("hub.topic", "is required");
            }
            if (topicUrl.length() > MAX_URL_LENGTH) {
                throw ApiProblem.invalid("hub.topic", "must be at most " + MAX_URL_LENGTH + " characters");
            }
            FeedTopic topic = topics.resolve(topicUrl, bases).orElseThrow(() -> ApiProblem.unprocessable("topic-not-served",
                    "topic_not_served", "This hub serves only this deployment's own feed exports; that topic is not one."));
            String host = callback.getHost().toLowerCase(Locale.ROOT);
            if (client.address(callback) == null) {
                throw ApiProblem.unprocessable("callback-not-public", "callback_not_public",
                        "The callback must be reachable at a public address; it resolves to none this hub may call.");
            }
            if (parsed == Intent.Mode.SUBSCRIBE && !subscribers.exists(topic.key(), callback.toString())) {
                withinCaps(topic, host);
            }
            int granted = (int) settings.lease(lease);
            long id = tx.write("hub request", () -> {
                long added = intents.add(parsed, topic.key(), topic.url(), callback.toString(), host, topic.ownerId(),
                        secretValue, granted, clock.instant());
                tx.afterCommit(() -> verifier.verifyLater(added));
                return added;
            });
            log.debug("hub: {} request {} for {} from callback host {}", parsed.wire(), id, topic.key(), host);
            metrics.request(modeName, "accepted");
        } catch (ApiProblem refused) {
            metrics.request(modeName, String.valueOf(refused.getBody().getType()).replace("urn:tributary:problem:", ""));
            throw refused;
        }
    }

    /** Personal topics count against their owner; public ones against the callback's host; all against the total. */
    private void withinCaps(FeedTopic topic, String host) {
        if (topic.personal()) {
            if (subscribers.countPersonal(topic.ownerId()) >= settings.maxPerPerson()) {
                throw ApiProblem.unprocessable("too-many-subscriptions", "too_many_for_person",
                        "This person's private feeds have " + settings.maxPerPerson() + " subscriptions, the most there may be.");
            }
        } else if (subscribers.countPublicByHost(host) >= settings.maxPerCallbackHost()) {
            throw ApiProblem.unprocessable("too-many-subscriptions", "too_many_for_callback_host",
                    "Callbacks on this host hold " + settings.maxPerCallbackHost() + " subscriptions, the most there may be.");
        }
        if (metrics.backlog().subscriptions() + intents.count() >= settings.maxSubscriptions()) {
            throw ApiProblem.unavailable("The hub holds as many subscriptions as it may; try again later.", 3600);
        }
    }

    private static Intent.Mode mode(@Nullable String mode) {
        if (mode == null || mode.isEmpty()) {
            throw ApiProblem.invalid("hub.mode", "is required");
        }
        return switch (mode) {
            case "subscribe" -> Intent.Mode.SUBSCRIBE;
            case "unsubscribe" -> Intent.Mode.UNSUBSCRIBE;
            default -> throw ApiProblem.invalid("hub.mode", "must be subscribe or unsubscribe");
        };
    }

    private static URI callback(@Nullable String callback) {
        if (callback == null || callback.isEmpty()) {
            throw ApiProblem.invalid("hub.callback", "is required");
        }
        if (callback.length() > MAX_URL_LENGTH) {
            throw ApiProblem.invalid("hub.callback", "must be at most " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(callback);
        } catch (URISyntaxException e) {
            throw ApiProblem.invalid("hub.callback", "must be an absolute http or https url");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))
                || uri.getRawUserInfo() != null) {
            throw ApiProblem.invalid("hub.callback", "must be an absolute http or https url without user info");
        }
        if (uri.getRawFragment() != null) {
            throw ApiProblem.invalid("hub.callback", "must not have a fragment");
        }
        return uri;
    }

    private static @Nullable Long lease(@Nullable String lease) {
        if (lease == null || lease.isEmpty()) {
            return null;
        }
        try {
            long seconds = Long.parseLong(lease.strip());
            if (seconds <= 0) {
                throw ApiProblem.invalid("hub.lease_seconds", "must be a positive number of seconds");
            }
            return seconds;
        } catch (NumberFormatException e) {
            throw ApiProblem.invalid("hub.lease_seconds", "must be a positive number of seconds");
        }
    }

    private static @Nullable String secret(@Nullable String secret) {
        if (secret == null || secret.isEmpty()) {
            return null;
        }
        if (secret.getBytes(StandardCharsets.UTF_8).length > MAX_SECRET_BYTES) {
            throw ApiProblem.invalid("hub.secret", "must be less than 200 bytes");
        }
        return secret;
    }
}
