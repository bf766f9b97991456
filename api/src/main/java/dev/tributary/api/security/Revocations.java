package dev.tributary.api.security;

import dev.tributary.api.web.Hashes;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Announces on Redis that a credential ended, so every node drops what it holds for it at once:
 * cached answers of authenticators and the live streams it opened. A message is one revocation
 * key of {@link dev.tributary.api.web.Credential} ({@code token:…}, {@code grant:…}, {@code jwt:…},
 * {@code session:…}) or {@code password:<person>} after a password change.
 */
@Component
public class Revocations {

    /** The channel every node listens to. */
    public static final String CHANNEL = "credentials:revoked";

    private static final String SESSION = "session:";

    /**
     * Published on this node, synchronously, before the announcement goes out: whatever caches a
     * credential here forgets it before the revocation is answered, while Redis's own delivery to
     * this node's listeners may come a moment later.
     */
    public record Revoked(String key) {
    }

    private final StringRedisTemplate redis;
    private final ApplicationEventPublisher events;

    Revocations(StringRedisTemplate redis, ApplicationEventPublisher events) {
        this.redis = redis;
        this.events = events;
    }

    /** Tells every node, this one included, that the credential named by {@code key} ended. */
    public void announce(String key) {
        events.publishEvent(new Revoked(key));
        redis.convertAndSend(CHANNEL, key);
    }

    public static String tokenKey(String hashHex) {
        return "token:" + hashHex;
    }

    public static String grantKey(String grantId) {
        return "grant:" + grantId;
    }

    public static String accessTokenKey(String tokenId) {
        return "jwt:" + tokenId;
    }

    /** Session ids are hashed: they sign a browser in, and messages on a channel are readable by any subscriber. */
    public static String sessionKey(String sessionId) {
        return SESSION + Hashes.sha256Hex(sessionId);
    }

    public static boolean isSessionKey(String key) {
        return key.startsWith(SESSION);
    }

    public static String passwordKey(long userId) {
        return "password:" + userId;
    }
}
