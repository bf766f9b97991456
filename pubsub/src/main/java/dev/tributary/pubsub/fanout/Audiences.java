package dev.tributary.pubsub.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * A source's audience as fan-out reads it: the {@code subscribers} table (written with each
 * subscription by {@link dev.tributary.pubsub.Subscriptions}), paged by user id so that no
 * worker ever holds a whole audience.
 */
@Component
class Audiences {

    private final JdbcClient jdbc;

    Audiences(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * One page of a source's subscribers in (afterUserId, upToUserId], by user id, each flagged if
     * they have filter rules: the flag saves fan-out a look-up of a thousand people's rules when,
     * as usual, none of them has any.
     */
    List<Subscriber> page(long sourceId, long afterUserId, long upToUserId, int limit) {
        return jdbc.sql("""
                SELECT s.user_id, s.media_mask, EXISTS (SELECT 1 FROM rules r WHERE r.user_id = s.user_id), s.from_seq
                FROM subscribers s
                WHERE s.source_id = ? AND s.user_id > ? AND s.user_id <= ? ORDER BY s.user_id LIMIT ?
                """)
                .params(sourceId, afterUserId, upToUserId, limit)
                .query((rs, n) -> new Subscriber(rs.getLong(1), rs.getInt(2), rs.getBoolean(3), rs.getLong(4)))
                .list();
    }

    /**
     * Cuts a source's subscribers after {@code afterUserId} into ranges of {@code size}: the last
     * user id of each full range (at most {@code maxRanges}), for splitting a large fan-out.
     */
    List<Long> rangeEnds(long sourceId, long afterUserId, int size, int maxRanges) {
        List<Long> ends = new ArrayList<>();
        long after = afterUserId;
        while (ends.size() < maxRanges) {
            Optional<Long> end = jdbc.sql("""
                    SELECT user_id FROM subscribers WHERE source_id = ? AND user_id > ? ORDER BY user_id LIMIT 1 OFFSET ?
                    """).params(sourceId, after, size - 1).query(Long.class).optional();
            if (end.isEmpty()) {
                break;
            }
            ends.add(end.get());
            after = end.get();
        }
        return ends;
    }
}
