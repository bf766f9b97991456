package dev.tributary.crawler.websub;

import dev.tributary.crawler.CrawlerSettings;
import dev.tributary.crawler.PublicUrlSettings;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.springframework.beans.factory.ObjectProvider;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Tributary as a WebSub subscriber: asks the hub a feed names to push it (when
 * {@code tributary.public-url} says where the hub can call back), answers the hub's intent
 * verification, checks the signatures of what it pushes, and renews leases before they end.
 */
@Service
public class HubSubscriptions {

    private static final Logger log = LoggerFactory.getLogger(HubSubscriptions.class);
    /** A request the hub has not verified (or refused) within this is asked again. */
    private static final Duration RETRY_UNVERIFIED = Duration.ofHours(1);
    private static final Duration RETRY_DENIED = Duration.ofDays(7);

    private final WebSubscriptions subscriptions;
    private final HubClient hubs;
    private final PublicUrlSettings publicUrl;
    private final Duration lease;
    private final Duration renewBefore;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    HubSubscriptions(WebSubscriptions subscriptions, HubClient hubs, PublicUrlSettings publicUrl,
            CrawlerSettings settings, ObjectProvider<Clock> clock) {
        this.subscriptions = subscriptions;
        this.hubs = hubs;
        this.publicUrl = publicUrl;
        this.lease = settings.websubLease();
        // A pushed feed is still polled every max-interval: renew when the lease would end before two more polls.
        this.renewBefore = settings.maxInterval().multipliedBy(2);
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** The callback url a hub is given for a subscription: the source id and the subscription's key. */
    private URI callback(long sourceId, String secret) {
        return publicUrl.resolve("/websub/" + sourceId + "/" + HubSignature.callbackKey(sourceId, secret));
    }

    /** Whether a hub pushes this feed now (so it is polled only at the maximum interval). */
    public boolean isPushed(long sourceId) {
        return subscriptions.find(sourceId).map(s -> s.active(clock.instant())).orElse(false);
    }

    public Optional<WebSubscription> find(long sourceId) {
        return subscriptions.find(sourceId);
    }

    /**
     * A fetch found the feed names {@code hub}: subscribe, or renew, if that is due. Does nothing
     * without a public url or a hub.
     */
    public void offer(long sourceId, @Nullable URI hub, URI topic) {
        if (publicUrl.publicUrl() == null || hub == null || !httpUrl(hub)) {
            return;
        }
        Instant now = clock.instant();
        Optional<WebSubscription> existing = subscriptions.find(sourceId);
        if (existing.isPresent() && !due(existing.get(), hub, topic, now)) {
            return;
        }
        subscribe(sourceId, hub, topic, now);
    }

    /**
     * A fetch answered 304 (no document to read the hub from): renew the subscription on record if
     * its lease is running out.
     */
    public void renewIfDue(long sourceId) {
        if (publicUrl.publicUrl() == null) {
            return;
        }
        subscriptions.find(sourceId).filter(s -> s.state() != WebSubscription.State.DENIED)
                .ifPresent(s -> offer(sourceId, s.hub(), s.topic()));
    }

    private boolean due(WebSubscription s, URI hub, URI topic, Instant now) {
        if (!s.hub().equals(hub) || !s.topic().equals(topic)) {
            return true;
        }
        return switch (s.state()) {
            case PENDING -> s.requestedAt().plus(RETRY_UNVERIFIED).isBefore(now);
            case DENIED -> s.requestedAt().plus(RETRY_DENIED).isBefore(now);
            case VERIFIED -> s.leaseUntil() == null || s.leaseUntil().minus(renewBefore).isBefore(now);
        };
    }

    private void subscribe(long sourceId, URI hub, URI topic, Instant now) {
        byte[] secret = new byte[24];
        random.nextBytes(secret);
        String hexSecret = HexFormat.of().formatHex(secret);
        // Recorded first: the hub may verify before its answer to this request arrives.
        subscriptions.requested(sourceId, hub, topic, hexSecret, now);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("hub.callback", callback(sourceId, hexSecret).toString());
        form.put("hub.mode", "subscribe");
        form.put("hub.topic", topic.toString());
        form.put("hub.lease_seconds", Long.toString(lease.toSeconds()));
        form.put("hub.secret", hexSecret);
        HubClient.Answer answer = hubs.post(hub, form);
        if (!answer.accepted()) {
            subscriptions.denied(sourceId, "hub " + hub + " refused the subscription: " + answer.detail());
            log.info("feed {}: hub {} refused the subscription ({})", sourceId, hub, answer.detail());
        } else {
            log.info("feed {}: asked hub {} to push {}", sourceId, hub, topic);
        }
    }

    /**
     * The hub's intent verification ({@code GET callback?hub.mode=...}); returns the challenge to
     * echo, or empty if this is not a subscription we asked for (the callback answers 404): the
     * callback's {@code key} must be the one the latest subscription request gave the hub.
     */
    public Optional<String> verify(long sourceId, @Nullable String key, String mode, String topic, String challenge,
            @Nullable Long leaseSeconds, @Nullable String reason) {
        Optional<WebSubscription> found = subscriptions.find(sourceId);
        if (found.isEmpty() || !HubSignature.validCallbackKey(key, sourceId, found.get().secret())
                || !found.get().topic().toString().equals(topic)) {
            return Optional.empty();
        }
        WebSubscription s = found.get();
        return switch (mode) {
            case "subscribe" -> {
                if (s.state() == WebSubscription.State.DENIED || challenge.isEmpty()) {
                    yield Optional.empty();
                }
                long seconds = leaseSeconds == null || leaseSeconds <= 0 ? lease.toSeconds()
                        : Math.min(leaseSeconds, Duration.ofDays(365).toSeconds());
                subscriptions.verified(sourceId, clock.instant().plusSeconds(seconds));
                yield Optional.of(challenge);
            }
            case "denied" -> {
                subscriptions.denied(sourceId, "hub denied the subscription"
                        + (reason == null ? "" : ": " + reason.substring(0, Math.min(reason.length(), 200))));
                yield Optional.of("");
            }
            // We never ask to unsubscribe while the row exists; a forged unsubscribe is refused.
            default -> Optional.empty();
        };
    }

    /** Whether pushed content genuinely comes from the hub of {@code subscription} (verified, valid HMAC signature). */
    public boolean authentic(WebSubscription subscription, @Nullable String signature, byte[] body) {
        if (subscription.state() != WebSubscription.State.VERIFIED
                || !HubSignature.valid(signature, body, subscription.secret())) {
            log.warn("feed {}: pushed content with a missing or wrong signature ignored", subscription.sourceId());
            return false;
        }
        subscriptions.delivered(subscription.sourceId());
        return true;
    }

    private static boolean httpUrl(URI uri) {
        String scheme = Objects.requireNonNullElse(uri.getScheme(), "");
        return uri.isAbsolute() && uri.getHost() != null && (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"));
    }
}
