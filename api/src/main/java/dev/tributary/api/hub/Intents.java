package dev.tributary.api.hub;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/** The SQL of {@code websub_hub_intents}: requests being verified. */
@Repository
class Intents {

    private final JdbcClient jdbc;
    private final SealedColumns sealed;

    Intents(JdbcClient jdbc, SealedColumns sealed) {
        this.jdbc = jdbc;
        this.sealed = sealed;
    }

    long add(Intent.Mode mode, String topicKey, String topicUrl, String callback, String callbackHost, long ownerId,
            String secret, int leaseSeconds, Instant now) {
        KeyHolder key = new GeneratedKeyHolder();
        jdbc.sql("""
                INSERT INTO websub_hub_intents (mode, topic_key, topic_url, callback, callback_host, owner_id, secret,
                    lease_seconds, created_at)
                VALUES (:mode, :key, :url, :callback, :host, :owner, :secret, :lease, :now)
                """)
                .param("mode", mode.wire()).param("key", topicKey).param("url", sealed.topicUrl(topicKey, topicUrl))
                .param("callback", callback)
                .param("host", callbackHost).param("owner", ownerId).param("secret", sealed.secret(topicKey, secret)).param("lease", leaseSeconds)
                .param("now", Timestamp.from(now))
                .update(key, "id");
        return key.getKey().longValue();
    }

    Optional<Intent> find(long id) {
        return jdbc.sql("SELECT * FROM websub_hub_intents WHERE id = ?").param(id).query(this::map).optional();
    }

    void remove(long id) {
        jdbc.sql("DELETE FROM websub_hub_intents WHERE id = ?").param(id).update();
    }

    /** Intents no verification finished in time (the node that took them stopped): they stop counting. */
    int removeOlderThan(Instant cutoff) {
        return jdbc.sql("DELETE FROM websub_hub_intents WHERE created_at < ? LIMIT 1000").param(Timestamp.from(cutoff)).update();
    }

    int count() {
        return jdbc.sql("SELECT COUNT(*) FROM websub_hub_intents WHERE mode = 'subscribe'").query(Integer.class).single();
    }

    private Intent map(ResultSet rs, int row) throws SQLException {
        return new Intent(rs.getLong("id"), Intent.Mode.valueOf(rs.getString("mode").toUpperCase(Locale.ROOT)),
                rs.getString("topic_key"), sealed.readTopicUrl(rs.getString("topic_key"), rs.getString("topic_url")), rs.getString("callback"),
                rs.getString("callback_host"),
                rs.getLong("owner_id"), sealed.readSecret(rs.getString("topic_key"), rs.getString("secret")), rs.getInt("lease_seconds"),
                rs.getTimestamp("created_at").toInstant());
    }
}
