package dev.tributary.api.oauth;

import dev.tributary.api.security.Revocations;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Access tokens refused before they expire, in Redis so every node sees a revocation at once
 * (and announced, so every node closes the live streams they opened).
 * A token is refused by its own id ({@code jti}: the token was revoked) or by its grant's id
 * (the refresh token was revoked or the person withdrew the app: every token of the grant dies).
 * Entries expire when the tokens they name would have, so the list stays as small as the live set.
 * Keys carry the person's id as a hash tag, so one MGET checks both in Redis Cluster too.
 * <p>
 * Each entry is written to MySQL first ({@code revoked_access_tokens}): Redis holds a marker key
 * once the list has been loaded into it, and a check that finds the marker gone (Redis lost its
 * keys) rebuilds the list from MySQL before it answers, so a revoked token is never let back in.
 */
@Component
class RevokedTokens {

    private static final Logger log = LoggerFactory.getLogger(RevokedTokens.class);

    /** Present while Redis holds every entry of MySQL's list; written last by a rebuild. */
    static final String LOADED_KEY = "oauth:revoked:loaded";
    /** Expired rows deleted per revocation: keeps the table at the live set without a job. */
    private static final int PURGE_BATCH = 100;

    private final StringRedisTemplate redis;
    private final JdbcClient jdbc;
    private final Revocations revocations;
    private final Clock clock;
    /** One rebuild per node at a time; the checks that wait meanwhile ask MySQL themselves. */
    private final ReentrantLock rebuilding = new ReentrantLock();

    RevokedTokens(StringRedisTemplate redis, JdbcClient jdbc, Revocations revocations) {
        this.redis = redis;
        this.jdbc = jdbc;
        this.revocations = revocations;
        this.clock = Clock.systemUTC();
    }

    /** Refuses one access token until it expires. */
    void revokeToken(String subject, String tokenId, Instant expiresAt) {
        deny(subject, 'T', tokenId, expiresAt);
        revocations.announce(Revocations.accessTokenKey(tokenId));
    }

    /** Refuses every access token of a grant issued until now; none live longer than {@code expiresAt}. */
    void revokeGrant(String subject, String grantId, Instant expiresAt) {
        deny(subject, 'G', grantId, expiresAt);
        revocations.announce(Revocations.grantKey(grantId));
    }

    /**
     * Whether the token or its grant was revoked: one {@code MGET} while Redis holds the list (on
     * the shared connection: a pipeline would open a connection of its own for every request).
     */
    boolean isRevoked(String subject, String tokenId, String grantId) {
        List<String> found = redis.opsForValue().multiGet(List.of(tokenKey(subject, tokenId), grantKey(subject, grantId), LOADED_KEY));
        if (found == null) {
            throw new IllegalStateException("MGET inside a pipeline or transaction");
        }
        if (found.get(0) != null || found.get(1) != null) {
            return true;
        }
        if (found.get(2) != null) {
            return false;
        }
        rebuild();
        return inMySql(subject, tokenId, grantId);
    }

    /** Loads every unexpired entry of MySQL's list into Redis, then marks the list loaded. */
    void rebuild() {
        if (!rebuilding.tryLock()) {
            return;
        }
        try {
            if (redis.hasKey(LOADED_KEY)) {
                return;
            }
            Instant now = clock.instant();
            List<Entry> entries = jdbc.sql("SELECT subject, kind, ref, expires_at FROM revoked_access_tokens WHERE expires_at > :now")
                    .param("now", Timestamp.from(now))
                    .query((rs, n) -> new Entry(rs.getString(1), rs.getString(2).charAt(0), rs.getString(3),
                            rs.getTimestamp(4).toInstant()))
                    .list();
            entries.forEach(entry -> setInRedis(entry.key(), entry.expiresAt()));
            redis.opsForValue().set(LOADED_KEY, "1");
            log.info("Rebuilt the OAuth deny-list in Redis from MySQL: {} entries", entries.size());
        } finally {
            rebuilding.unlock();
        }
    }

    private boolean inMySql(String subject, String tokenId, String grantId) {
        return jdbc.sql("""
                SELECT COUNT(*) FROM revoked_access_tokens
                WHERE subject = :subject AND ((kind = 'T' AND ref = :token) OR (kind = 'G' AND ref = :grant))
                AND expires_at > :now
                """).param("subject", subject).param("token", tokenId).param("grant", grantId)
                .param("now", Timestamp.from(clock.instant())).query(Integer.class).single() > 0;
    }

    private void deny(String subject, char kind, String ref, Instant expiresAt) {
        Instant now = clock.instant();
        if (!expiresAt.isAfter(now)) {
            return;
        }
        // A second over, so a token is never accepted in the moment its entry expires.
        Instant until = expiresAt.plusSeconds(1).truncatedTo(ChronoUnit.MICROS);
        jdbc.sql("""
                INSERT INTO revoked_access_tokens (subject, kind, ref, expires_at) VALUES (:subject, :kind, :ref, :until)
                ON DUPLICATE KEY UPDATE expires_at = GREATEST(expires_at, VALUES(expires_at))
                """).param("subject", subject).param("kind", String.valueOf(kind)).param("ref", ref)
                .param("until", Timestamp.from(until)).update();
        jdbc.sql("DELETE FROM revoked_access_tokens WHERE expires_at < :now LIMIT " + PURGE_BATCH)
                .param("now", Timestamp.from(now)).update();
        setInRedis(new Entry(subject, kind, ref, until).key(), until);
    }

    private void setInRedis(String key, Instant until) {
        Duration left = Duration.between(clock.instant(), until);
        if (!left.isNegative() && !left.isZero()) {
            redis.opsForValue().set(key, "1", left);
        }
    }

    /** One row of the list. */
    private record Entry(String subject, char kind, String ref, Instant expiresAt) {
        String key() {
            return kind == 'T' ? tokenKey(subject, ref) : grantKey(subject, ref);
        }
    }

    private static String tokenKey(String subject, String tokenId) {
        return "oauth:revoked:{" + subject + "}:token:" + tokenId;
    }

    private static String grantKey(String subject, String grantId) {
        return "oauth:revoked:{" + subject + "}:grant:" + grantId;
    }
}
