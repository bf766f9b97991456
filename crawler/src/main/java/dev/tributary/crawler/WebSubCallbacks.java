package dev.tributary.crawler;

import dev.tributary.crawler.normalize.FeedDocument;
import dev.tributary.crawler.parse.FeedFormatException;
import dev.tributary.crawler.ingest.FeedIngest;
import dev.tributary.crawler.websub.HubSignature;
import dev.tributary.crawler.websub.HubSubscriptions;
import dev.tributary.crawler.websub.WebSubscription;
import java.time.Clock;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

/**
 * What the WebSub callback endpoint ({@code /websub/{sourceId}/{key}}) does: answer a hub's intent
 * verification when the key is the subscription's, and publish content a hub pushes once its
 * signature checks out (pushes to the key-less path of subscriptions made before keys are signed too).
 */
@Service
public class WebSubCallbacks {

    private static final Logger log = LoggerFactory.getLogger(WebSubCallbacks.class);

    /** How a push was taken; the endpoint answers 2xx to all but {@link #UNKNOWN} (WebSub says so). */
    public enum Delivery {
        PUBLISHED,
        /** Signature missing or wrong: ignored. */
        REJECTED,
        /** Signed, but not a readable feed: ignored. */
        UNREADABLE,
        /** No verified subscription for this source (the endpoint answers 410, so the hub stops). */
        UNKNOWN
    }

    private final HubSubscriptions hubs;
    private final FeedIngest ingest;
    private final Clock clock;

    WebSubCallbacks(HubSubscriptions hubs, FeedIngest ingest, ObjectProvider<Clock> clock) {
        this.hubs = hubs;
        this.ingest = ingest;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** The challenge to echo (200), or empty for an intent we did not ask for or a wrong key (404). */
    public Optional<String> verify(long sourceId, @Nullable String key, @Nullable String mode, @Nullable String topic,
            @Nullable String challenge, @Nullable String leaseSeconds, @Nullable String reason) {
        if (mode == null || topic == null) {
            return Optional.empty();
        }
        Long lease = null;
        if (leaseSeconds != null) {
            try {
                lease = Long.parseLong(leaseSeconds.strip());
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return hubs.verify(sourceId, key, mode, topic, challenge == null ? "" : challenge, lease, reason);
    }

    /** Content distribution: a hub pushes the feed's new body (to the keyed callback, or to the key-less one of old). */
    public Delivery deliver(long sourceId, @Nullable String key, @Nullable String signature, byte[] body,
            @Nullable String contentType) {
        Optional<WebSubscription> subscription = hubs.find(sourceId);
        if (subscription.isEmpty()) {
            return Delivery.UNKNOWN;
        }
        if (key != null && !HubSignature.validCallbackKey(key, sourceId, subscription.get().secret())) {
            return Delivery.REJECTED;
        }
        if (!hubs.authentic(subscription.get(), signature, body)) {
            return Delivery.REJECTED;
        }
        try {
            FeedDocument document = ingest.read(body, contentType, subscription.get().topic(), clock.instant());
            int created = ingest.publishPart(sourceId, document);
            log.debug("feed {}: hub pushed {} entries, {} new", sourceId, document.items().size(), created);
            return Delivery.PUBLISHED;
        } catch (FeedFormatException e) {
            log.info("feed {}: hub pushed an unreadable body: {}", sourceId, e.getMessage());
            return Delivery.UNREADABLE;
        }
    }
}
