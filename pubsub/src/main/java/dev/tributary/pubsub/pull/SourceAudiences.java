package dev.tributary.pubsub.pull;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.inbox.Inbox;
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

    private record Row(long subscribers, boolean pulled, boolean everPulled) {}

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
            row = Optional.of(new Row(0, false, false));
        }
        long subscribers = Math.max(0, row.get().subscribers() + delta);
        boolean pulled = settings.pulls(subscribers, row.get().pulled());
        jdbc.sql("""
                UPDATE source_audiences SET subscribers = ?, pulled = ?, ever_pulled = ever_pulled OR ? WHERE source_id = ?
                """).params(subscribers, pulled, pulled, sourceId).update();
        firstPulled(row.get(), pulled);
        return row.get().everPulled() || pulled;
    }

    /**
     * Locks the source's row until the caller commits and says whether what it publishes now is
     * pulled (settling the mode first, so a changed threshold takes effect at the next publish).
     */
    public boolean lockForPublish(long sourceId) {
        Optional<Row> row = locked(sourceId);
        if (row.isEmpty()) {
            return false; // nobody has ever followed it: nothing to fan out either way
        }
        boolean pulled = settings.pulls(row.get().subscribers(), row.get().pulled());
        if (pulled != row.get().pulled()) {
            jdbc.sql("UPDATE source_audiences SET pulled = ?, ever_pulled = ever_pulled OR ? WHERE source_id = ?")
                    .params(pulled, pulled, sourceId).update();
            firstPulled(row.get(), pulled);
        }
        return pulled;
    }

    /** A source pulled for the first time joins each follower's pulled sources, which nodes keep. */
    private void firstPulled(Row before, boolean pulled) {
        if (pulled && !before.everPulled()) {
            inbox.pulledSourcesChanged();
        }
    }

    private Optional<Row> locked(long sourceId) {
        return jdbc.sql("SELECT subscribers, pulled, ever_pulled FROM source_audiences WHERE source_id = ? FOR UPDATE")
                .param(sourceId)
                .query((rs, n) -> new Row(rs.getLong(1), rs.getBoolean(2), rs.getBoolean(3)))
                .optional();
    }
}
