package dev.tributary.api.oauth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Access tokens refused before they expire, in Redis so every node sees a revocation at once.
 * A token is refused by its own id ({@code jti}: the token was revoked) or by its grant's id
 * (the refresh token was revoked or the person withdrew the app: every token of the grant dies).
 * Entries expire when the tokens they name would have, so the list stays as small as the live set.
 * Keys carry the person's id as a hash tag, so one MGET checks both in Redis Cluster too.
 */
@Component
class RevokedTokens {

    private final StringRedisTemplate redis;
    private final Clock clock;

    RevokedTokens(StringRedisTemplate redis) {
        this.redis = redis;
        this.clock = Clock.systemUTC();
    }

    /** Refuses one access token until it expires. */
    void revokeToken(String subject, String tokenId, Instant expiresAt) {
        deny(tokenKey(subject, tokenId), expiresAt);
    }

    /** Refuses every access token of a grant issued until now; none live longer than {@code expiresAt}. */
    void revokeGrant(String subject, String grantId, Instant expiresAt) {
        deny(grantKey(subject, grantId), expiresAt);
    }

    /** Whether the token or its grant was revoked: one round trip. */
    boolean isRevoked(String subject, String tokenId, String grantId) {
        List<String> found = redis.opsForValue().multiGet(List.of(tokenKey(subject, tokenId), grantKey(subject, grantId)));
        return found != null && found.stream().anyMatch(Objects::nonNull);
    }

    private void deny(String key, Instant expiresAt) {
        Duration left = Duration.between(clock.instant(), expiresAt);
        if (!left.isNegative() && !left.isZero()) {
            // A second over, so a token is never accepted in the moment its entry expires.
            redis.opsForValue().set(key, "1", left.plusSeconds(1));
        }
    }

    private static String tokenKey(String subject, String tokenId) {
        return "oauth:revoked:{" + subject + "}:token:" + tokenId;
    }

    private static String grantKey(String subject, String grantId) {
        return "oauth:revoked:{" + subject + "}:grant:" + grantId;
    }
}
