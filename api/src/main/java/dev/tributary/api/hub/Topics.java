package dev.tributary.api.hub;

import dev.tributary.api.export.FeedTopic;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of {@code websub_hub_topics}: topics with subscribers and the ETag of their content last seen. */
@Repository
class Topics {

    /** Before any real check: a topic checked then is the first due. */
    private static final Instant LONG_AGO = Instant.parse("2000-01-01T00:00:00Z");

    private final JdbcClient jdbc;
    private final SealedColumns sealed;

    Topics(JdbcClient jdbc, SealedColumns sealed) {
        this.jdbc = jdbc;
        this.sealed = sealed;
    }

    /** Records the topic (if new) as it is now: only changes after this are pushed. */
    void watch(FeedTopic topic, @Nullable String etag, Instant now) {
        jdbc.sql("""
                INSERT INTO websub_hub_topics (topic_key, topic_url, owner_id, etag, checked_at) VALUES (?, ?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE topic_url = VALUES(topic_url)
                """).params(topic.key(), sealed.topicUrl(topic.key(), topic.url()), topic.ownerId(), etag, Timestamp.from(now)).update();
    }

    boolean known(String topicKey) {
        return jdbc.sql("SELECT COUNT(*) FROM websub_hub_topics WHERE topic_key = ?").param(topicKey).query(Integer.class).single() > 0;
    }

    /** The topic's content changed from {@code seen} to {@code now}; false when another check recorded it first. */
    boolean changed(String topicKey, @Nullable String seen, String etag, Instant at) {
        return jdbc.sql("UPDATE websub_hub_topics SET etag = ?, checked_at = ? WHERE topic_key = ? AND etag <=> ?")
                .params(etag, Timestamp.from(at), topicKey, seen).update() == 1;
    }

    void checked(String topicKey, Instant at) {
        jdbc.sql("UPDATE websub_hub_topics SET checked_at = ? WHERE topic_key = ?").params(Timestamp.from(at), topicKey).update();
    }

    /** The watched topics of these people. */
    List<Watched> ofOwners(List<Long> owners) {
        if (owners.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT * FROM websub_hub_topics WHERE owner_id IN (:owners)").param("owners", owners)
                .query((rs, row) -> watched(rs.getString("topic_key"), rs.getString("topic_url"), rs.getString("etag"))).list();
    }

    /** Topics not checked since {@code before}, oldest first. */
    List<Watched> unchecked(Instant before, int limit) {
        return jdbc.sql("SELECT * FROM websub_hub_topics WHERE checked_at < ? ORDER BY checked_at LIMIT ?")
                .params(Timestamp.from(before), limit)
                .query((rs, row) -> watched(rs.getString("topic_key"), rs.getString("topic_url"), rs.getString("etag"))).list();
    }

    /** Everyone (and every group) whose topics are watched: their notices wake the checks. */
    List<Owner> owners() {
        return jdbc.sql("SELECT DISTINCT owner_id, SUBSTRING_INDEX(topic_key, ':', 1) AS kind FROM websub_hub_topics LIMIT 100000")
                .query((rs, row) -> new Owner(FeedTopic.Kind.valueOf(rs.getString("kind").toUpperCase(Locale.ROOT)),
                        rs.getLong("owner_id"))).list();
    }

    /** Makes these topics due for a check at once (by any node's watch), without waiting for a notice or the interval. */
    int due(List<String> topicKeys) {
        if (topicKeys.isEmpty()) {
            return 0;
        }
        return jdbc.sql("UPDATE websub_hub_topics SET checked_at = :long_ago WHERE topic_key IN (:keys)")
                .param("long_ago", Timestamp.from(LONG_AGO)).param("keys", topicKeys).update();
    }

    void remove(String topicKey) {
        jdbc.sql("DELETE FROM websub_hub_topics WHERE topic_key = ?").param(topicKey).update();
    }

    /** Topics nobody subscribes to any more. */
    int removeUnsubscribed() {
        return jdbc.sql("""
                DELETE FROM websub_hub_topics WHERE NOT EXISTS
                    (SELECT 1 FROM websub_hub_subscriptions s WHERE s.topic_key = websub_hub_topics.topic_key)
                """).update();
    }

    /** Whose topics: a person ({@code USER}, {@code HOME}) or a group ({@code GROUP}). */
    record Owner(FeedTopic.Kind kind, long id) {
    }

    /** A watched topic and the ETag last seen of it. */
    record Watched(FeedTopic topic, @Nullable String etag) {
    }

    private Watched watched(String key, String stored, @Nullable String etag) {
        return new Watched(FeedTopic.of(key, sealed.readTopicUrl(key, stored)), etag);
    }
}
