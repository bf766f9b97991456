package dev.tributary.api.oauth;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's view of the access-token signing keys ({@link SigningKeys}), read at start-up,
 * which fails if a stored key does not open with the configured {@link KeyEncryptionKey}, and
 * re-read every {@link #RELOAD_EVERY} so a rotation made on any node reaches every node before
 * its new key signs. A failed re-read keeps the last view.
 */
final class SigningKeyRing {

    private static final Logger log = LoggerFactory.getLogger(SigningKeyRing.class);

    /** Well under {@link SigningKeys#ACTIVATION_DELAY}. */
    static final Duration RELOAD_EVERY = Duration.ofSeconds(30);

    private record Snapshot(SigningKeys.Ring ring, Instant readAt) {
    }

    private final SigningKeys keys;
    private final String name;
    private final Duration tokenLifetime;
    private final Clock clock;
    private final ReentrantLock reloading = new ReentrantLock();
    private volatile Snapshot snapshot;

    SigningKeyRing(SigningKeys keys, String name, Duration tokenLifetime, Clock clock) {
        this.keys = keys;
        this.name = name;
        this.tokenLifetime = tokenLifetime;
        this.clock = clock;
        this.snapshot = new Snapshot(keys.ring(name, tokenLifetime), clock.instant());
    }

    /** The key that signs now, private part included. */
    RSAKey signing() {
        return current().signing();
    }

    /** Public keys a token of this ring may be signed with. */
    List<RSAKey> verifying() {
        return current().verifying();
    }

    /** Adds a key that signs from {@link SigningKeys#ACTIVATION_DELAY} on; this node sees it at once. */
    SigningKeys.Key rotate() {
        SigningKeys.Key added = keys.rotate(name, tokenLifetime);
        snapshot = new Snapshot(keys.ring(name, tokenLifetime), clock.instant());
        return added;
    }

    /** Every key of the ring as last read, oldest first. */
    List<SigningKeys.Key> keys() {
        return current().keys();
    }

    /** The signing key alone: what the token encoder picks from. */
    JWKSource<SecurityContext> signingSource() {
        return (selector, context) -> selector.select(new JWKSet(signing()));
    }

    /** The verifying public keys: what the API checks tokens with and /oauth2/jwks publishes. */
    JWKSource<SecurityContext> verifyingSource() {
        return (selector, context) -> selector.select(new JWKSet(List.<JWK>copyOf(verifying())));
    }

    private SigningKeys.Ring current() {
        Snapshot seen = snapshot;
        if (seen.readAt().plus(RELOAD_EVERY).isAfter(clock.instant()) || !reloading.tryLock()) {
            return seen.ring();
        }
        try {
            snapshot = new Snapshot(keys.ring(name, tokenLifetime), clock.instant());
        } catch (RuntimeException e) {
            log.warn("Re-reading the signing keys failed; the ones read at {} stay in use", seen.readAt(), e);
            snapshot = new Snapshot(seen.ring(), clock.instant());
        } finally {
            reloading.unlock();
        }
        return snapshot.ring();
    }
}
