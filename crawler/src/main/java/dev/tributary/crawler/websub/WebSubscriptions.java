package dev.tributary.crawler.websub;

import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of {@code websub_subscriptions}: one row per feed that names a hub. */
@Repository
class WebSubscriptions {

    private static final RowMapper<WebSubscription> ROW = WebSubscriptions::map;

    private final JdbcClient jdbc;

    WebSubscriptions(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Optional<WebSubscription> find(long sourceId) {
        return jdbc.sql("SELECT * FROM websub_subscriptions WHERE source_id = ?").param(sourceId).query(ROW).optional();
    }

    /** Records a new request to the hub (replacing any earlier one and its secret). */
    void requested(long sourceId, URI hub, URI topic, String secret, Instant now) {
        jdbc.sql("""
                INSERT INTO websub_subscriptions (source_id, hub_url, topic_url, secret, state, requested_at)
                VALUES (:source, :hub, :topic, :secret, 'pending', :now)
                ON DUPLICATE KEY UPDATE hub_url = VALUES(hub_url), topic_url = VALUES(topic_url),
                    secret = VALUES(secret), state = 'pending', requested_at = VALUES(requested_at), last_error = NULL
                """)
                .param("source", sourceId).param("hub", hub.toString()).param("topic", topic.toString())
                .param("secret", secret).param("now", Timestamp.from(now))
                .update();
    }

    void verified(long sourceId, Instant leaseUntil) {
        jdbc.sql("UPDATE websub_subscriptions SET state = 'verified', lease_until = ?, last_error = NULL WHERE source_id = ?")
                .params(Timestamp.from(leaseUntil), sourceId).update();
    }

    void denied(long sourceId, String reason) {
        jdbc.sql("UPDATE websub_subscriptions SET state = 'denied', lease_until = NULL, last_error = ? WHERE source_id = ?")
                .params(truncate(reason), sourceId).update();
    }

    void delivered(long sourceId) {
        jdbc.sql("UPDATE websub_subscriptions SET deliveries = deliveries + 1 WHERE source_id = ?").param(sourceId).update();
    }

    private static String truncate(String value) {
        return value.length() <= 1024 ? value : value.substring(0, 1024);
    }

    private static WebSubscription map(ResultSet rs, int row) throws SQLException {
        return new WebSubscription(rs.getLong("source_id"), URI.create(rs.getString("hub_url")),
                URI.create(rs.getString("topic_url")), rs.getString("secret"),
                WebSubscription.State.of(rs.getString("state")), instant(rs.getTimestamp("lease_until")),
                rs.getTimestamp("requested_at").toInstant(), rs.getString("last_error"), rs.getLong("deliveries"));
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

}
