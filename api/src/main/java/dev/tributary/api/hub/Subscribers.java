package dev.tributary.api.hub;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The SQL of {@code websub_hub_subscriptions}: verified subscriptions and, on the same rows, the
 * delivery queue (one pending mark per subscription however many changes came: the content sent
 * is the topic's at delivery time).
 */
@Repository
class Subscribers {

    private final JdbcClient jdbc;
    private final SealedColumns sealed;

    Subscribers(JdbcClient jdbc, SealedColumns sealed) {
        this.jdbc = jdbc;
        this.sealed = sealed;
    }

    /** Creates or renews (new lease and secret) the subscription of {@code callback} to the topic. */
    void upsert(String topicKey, String topicUrl, String callback, String callbackHost, long ownerId, @Nullable String secret,
            Instant leaseUntil, Instant now) {
        jdbc.sql("""
                INSERT INTO websub_hub_subscriptions (topic_key, topic_url, callback, callback_hash, callback_host, owner_id,
                    secret, lease_until, created_at)
                VALUES (:key, :url, :callback, :hash, :host, :owner, :secret, :lease, :now)
                ON DUPLICATE KEY UPDATE topic_url = VALUES(topic_url), secret = VALUES(secret), lease_until = VALUES(lease_until)
                """)
                .param("key", topicKey).param("url", sealed.topicUrl(topicKey, topicUrl)).param("callback", callback)
                .param("hash", hash(callback))
                .param("host", callbackHost).param("owner", ownerId).param("secret", sealed.secret(topicKey, secret))
                .param("lease", Timestamp.from(leaseUntil)).param("now", Timestamp.from(now))
                .update();
    }

    boolean exists(String topicKey, String callback) {
        return jdbc.sql("SELECT COUNT(*) FROM websub_hub_subscriptions WHERE topic_key = ? AND callback_hash = ?")
                .params(topicKey, hash(callback)).query(Integer.class).single() > 0;
    }

    int remove(String topicKey, String callback) {
        return jdbc.sql("DELETE FROM websub_hub_subscriptions WHERE topic_key = ? AND callback_hash = ?")
                .params(topicKey, hash(callback)).update();
    }

    void remove(long id) {
        jdbc.sql("DELETE FROM websub_hub_subscriptions WHERE id = ?").param(id).update();
    }

    /** Every subscription of the topic (it is no longer served: each is told it was denied). */
    List<Subscriber> ofTopic(String topicKey) {
        return jdbc.sql("SELECT * FROM websub_hub_subscriptions WHERE topic_key = ?").param(topicKey).query(this::map).list();
    }

    int removeTopic(String topicKey) {
        return jdbc.sql("DELETE FROM websub_hub_subscriptions WHERE topic_key = ?").param(topicKey).update();
    }

    /** Subscriptions whose lease ended: dropped, with whatever content was pending for them. */
    int removeExpired(Instant now) {
        return jdbc.sql("DELETE FROM websub_hub_subscriptions WHERE lease_until <= ? LIMIT 1000").param(Timestamp.from(now)).update();
    }

    /** The topic changed: every live subscription of it has content pending (tries start over). */
    int markChanged(String topicKey, Instant now) {
        return jdbc.sql("""
                UPDATE websub_hub_subscriptions SET pending = 1, version = version + 1, attempts = 0, next_attempt_at = :now
                WHERE topic_key = :key AND lease_until > :now
                """).param("key", topicKey).param("now", Timestamp.from(now)).update();
    }

    /**
     * Takes up to {@code limit} due deliveries for {@code hold} (in the caller's transaction: rows
     * another node is taking are skipped, not waited for).
     */
    List<Subscriber> claimDue(int limit, Instant now, Duration hold) {
        List<Subscriber> due = jdbc.sql("""
                SELECT * FROM websub_hub_subscriptions
                WHERE pending = 1 AND next_attempt_at <= :now AND lease_until > :now
                  AND (claimed_until IS NULL OR claimed_until < :now)
                ORDER BY next_attempt_at LIMIT :limit FOR UPDATE SKIP LOCKED
                """).param("now", Timestamp.from(now)).param("limit", limit).query(this::map).list();
        if (!due.isEmpty()) {
            jdbc.sql("UPDATE websub_hub_subscriptions SET claimed_until = :until WHERE id IN (:ids)")
                    .param("until", Timestamp.from(now.plus(hold))).param("ids", due.stream().map(Subscriber::id).toList())
                    .update();
        }
        return due;
    }

    /** Delivered: the pending mark goes unless a later change came meanwhile (then that is sent next). */
    void delivered(Subscriber s, Instant now) {
        jdbc.sql("""
                UPDATE websub_hub_subscriptions SET pending = IF(version = :version, 0, pending), attempts = 0,
                    next_attempt_at = :now, claimed_until = NULL, delivered_at = :now, last_error = NULL
                WHERE id = :id
                """).param("version", s.version()).param("now", Timestamp.from(now)).param("id", s.id()).update();
    }

    /** A try failed: tried again at {@code next}, or, with {@code next} null, the pending content is given up. */
    void failed(Subscriber s, @Nullable Instant next, String error) {
        jdbc.sql("""
                UPDATE websub_hub_subscriptions SET attempts = attempts + 1, claimed_until = NULL, last_error = :error,
                    pending = IF(:give_up AND version = :version, 0, pending), next_attempt_at = COALESCE(:next, next_attempt_at)
                WHERE id = :id
                """).param("error", error.length() <= 255 ? error : error.substring(0, 255)).param("give_up", next == null)
                .param("version", s.version()).param("next", next == null ? null : Timestamp.from(next)).param("id", s.id())
                .update();
    }

    /**
     * Subscriptions of the person's private feeds, verified or being verified: one statement, so a
     * verification committing meanwhile (its intent becoming a subscription) is counted once, not missed.
     */
    int countPersonal(long ownerId) {
        return jdbc.sql("""
                SELECT (SELECT COUNT(*) FROM websub_hub_subscriptions WHERE owner_id = :owner AND topic_key LIKE 'home:%')
                     + (SELECT COUNT(*) FROM websub_hub_intents WHERE owner_id = :owner AND mode = 'subscribe'
                            AND topic_key LIKE 'home:%')
                """).param("owner", ownerId).query(Integer.class).single();
    }

    /** Subscriptions of public feeds with callbacks on {@code host}, verified or being verified (one statement, as above). */
    int countPublicByHost(String host) {
        return jdbc.sql("""
                SELECT (SELECT COUNT(*) FROM websub_hub_subscriptions WHERE callback_host = :host AND topic_key NOT LIKE 'home:%')
                     + (SELECT COUNT(*) FROM websub_hub_intents WHERE callback_host = :host AND mode = 'subscribe'
                            AND topic_key NOT LIKE 'home:%')
                """).param("host", host).query(Integer.class).single();
    }

    /** How many subscriptions there are, how many have content pending, and since when the oldest waits. */
    Backlog backlog(Instant now) {
        return jdbc.sql("""
                SELECT COUNT(*) AS total, COALESCE(SUM(pending), 0) AS pending,
                    MIN(CASE WHEN pending = 1 THEN next_attempt_at END) AS oldest
                FROM websub_hub_subscriptions WHERE lease_until > ?
                """).param(Timestamp.from(now)).query((rs, row) -> new Backlog(rs.getLong("total"), rs.getLong("pending"),
                        Optional.ofNullable(rs.getTimestamp("oldest")).map(Timestamp::toInstant).orElse(null))).single();
    }

    /** @param oldestDue when the longest-waiting pending delivery became due, or null */
    record Backlog(long subscriptions, long pending, @Nullable Instant oldestDue) {
    }

    private static byte[] hash(String callback) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(callback.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private Subscriber map(ResultSet rs, int row) throws SQLException {
        return new Subscriber(rs.getLong("id"), rs.getString("topic_key"), sealed.readTopicUrl(rs.getString("topic_key"),
                rs.getString("topic_url")), rs.getString("callback"),
                rs.getString("callback_host"), rs.getLong("owner_id"), sealed.readSecret(rs.getString("topic_key"), rs.getString("secret")),
                rs.getTimestamp("lease_until").toInstant(), rs.getInt("version"), rs.getInt("attempts"),
                Optional.ofNullable(rs.getTimestamp("next_attempt_at")).map(Timestamp::toInstant).orElse(null));
    }
}
