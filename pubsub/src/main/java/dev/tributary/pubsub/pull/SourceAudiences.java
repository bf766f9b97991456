package dev.tributary.pubsub.pull;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.inbox.Inbox;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Each source's audience size and mode, {@code source_audiences}: the count moves in the
 * subscribing and unsubscribing transactions and the mode is settled under the row's lock there
 * and when publishing, so every item is stored either pushed or pulled, never both.
 */
@Component
public class SourceAudiences {

    private record Row(long subscribers, boolean pulled, boolean everPulled, long publishedSeq) {}

    private final JdbcClient jdbc;
    private final FanoutSettings settings;
    private final Inbox inbox;

    SourceAudiences(JdbcClient jdbc, FanoutSettings settings, Inbox inbox) {
        this.jdbc = jdbc;
        this.settings = settings;
        this.inbox = inbox;
    }

    /**
     * A subscription to the source began ({@code delta} 1) or ended (-1), inside the caller's
     * transaction: the count moves and the mode follows it. Whether the source has ever been
     * pulled (its followers have pulled items to read).
     */
    public boolean followed(long sourceId, int delta) {
        Optional<Row> row = locked(sourceId);
        if (row.isEmpty()) {
            jdbc.sql("INSERT INTO source_audiences (source_id, subscribers) VALUES (?, 0)").param(sourceId).update();
            row = Optional.of(new Row(0, false, false, 0));
        }
        long subscribers = Math.max(0, row.get().subscribers() + delta);
        boolean pulled = settings.pulls(subscribers, row.get().pulled());
        jdbc.sql("""
                UPDATE source_audiences SET subscribers = ?, pulled = ?, ever_pulled = ever_pulled OR ? WHERE source_id = ?
                """).params(subscribers, pulled, pulled, sourceId).update();
        firstPulled(row.get(), pulled);
        return row.get().everPulled() || pulled;
    }

    /** What a publish holds: whether its items are pulled, and its number among the source's publishes. */
    public record Publishing(boolean pulled, long seq) {}

    /**
     * Locks the source's row until the caller commits (making it if nobody ever followed the
     * source), counts this publish in {@code published_seq} and says whether what it publishes
     * now is pulled (settling the mode first, so a changed threshold takes effect at the next
     * publish). The row lock orders publishes and subscriptions of the source: a subscription
     * records the count it saw ({@link #publishedSeq}), and fan-out leaves it the publishes up to it.
     */
    public Publishing lockForPublish(long sourceId) {
        // One statement that makes or moves the row takes its exclusive lock at once (no shared-then-exclusive deadlock).
        jdbc.sql("""
                INSERT INTO source_audiences (source_id, subscribers, published_seq) VALUES (?, 0, 1)
                ON DUPLICATE KEY UPDATE published_seq = published_seq + 1
                """).param(sourceId).update();
        Row row = locked(sourceId).orElseThrow();
        boolean pulled = settings.pulls(row.subscribers(), row.pulled());
        if (pulled != row.pulled()) {
            jdbc.sql("UPDATE source_audiences SET pulled = ?, ever_pulled = ever_pulled OR ? WHERE source_id = ?")
                    .params(pulled, pulled, sourceId).update();
            firstPulled(row, pulled);
        }
        return new Publishing(pulled, row.publishedSeq());
    }

    /**
     * The source's publish count: before a transaction, what a back-fill is read at; in the
     * subscribing transaction after {@link #followed} (which holds the row), the count no
     * publish can move until it commits. 0 for a source never published nor followed.
     */
    public long publishedSeq(long sourceId) {
        return jdbc.sql("SELECT published_seq FROM source_audiences WHERE source_id = ?").param(sourceId)
                .query(Long.class).optional().orElse(0L);
    }

    /** {@link #publishedSeq} of many sources in one read; a source without a row is 0. */
    public Map<Long, Long> publishedSeqs(Collection<Long> sourceIds) {
        Map<Long, Long> seqs = new HashMap<>();
        if (sourceIds.isEmpty()) {
            return seqs;
        }
        jdbc.sql("SELECT source_id, published_seq FROM source_audiences WHERE source_id IN (:ids)").param("ids", sourceIds)
                .query((rs, n) -> Map.entry(rs.getLong(1), rs.getLong(2))).list()
                .forEach(row -> seqs.put(row.getKey(), row.getValue()));
        return seqs;
    }

    /** A source pulled for the first time joins each follower's pulled sources, which nodes keep. */
    private void firstPulled(Row before, boolean pulled) {
        if (pulled && !before.everPulled()) {
            inbox.pulledSourcesChanged();
        }
    }

    private Optional<Row> locked(long sourceId) {
        return jdbc.sql("SELECT subscribers, pulled, ever_pulled, published_seq FROM source_audiences WHERE source_id = ? FOR UPDATE")
                .param(sourceId)
                .query((rs, n) -> new Row(rs.getLong(1), rs.getBoolean(2), rs.getBoolean(3), rs.getLong(4)))
                .optional();
    }
}
