package dev.tributary.pubsub.fanout;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
     * as usual, none of them has any. The flags come from a second statement: an {@code EXISTS} per
     * subscriber in the page's own statement ran a dependent subquery for every row. It reads one
     * range of {@code rules}' key, from the page's first person to its last, where rule owners are
     * few; where the range holds more of them than the page holds people (a small audience spread
     * over every id), it reads the page's people by key instead, so a page never reads more than
     * its own size. The two reads are not one snapshot, nor need they be: rules are matched
     * outside any transaction, so a rule committed between them is as one committed before the page.
     */
    List<Subscriber> page(long sourceId, long afterUserId, long upToUserId, int limit) {
        List<Subscriber> page = jdbc.sql("""
                SELECT user_id, media_mask, from_seq FROM subscribers
                WHERE source_id = ? AND user_id > ? AND user_id <= ? ORDER BY user_id LIMIT ?
                """)
                .params(sourceId, afterUserId, upToUserId, limit)
                .query((rs, n) -> new Subscriber(rs.getLong(1), rs.getInt(2), false, rs.getLong(3)))
                .list();
        if (page.isEmpty()) {
            return page;
        }
        List<Long> owners = jdbc.sql("""
                SELECT DISTINCT user_id FROM rules WHERE user_id >= ? AND user_id <= ? ORDER BY user_id LIMIT ?
                """).params(page.getFirst().userId(), page.getLast().userId(), page.size() + 1).query(Long.class).list();
        if (owners.size() > page.size()) {
            owners = jdbc.sql("SELECT DISTINCT user_id FROM rules WHERE user_id IN (:users)")
                    .param("users", page.stream().map(Subscriber::userId).toList()).query(Long.class).list();
        }
        Set<Long> withRules = new HashSet<>(owners);
        if (withRules.isEmpty()) {
            return page;
        }
        List<Subscriber> flagged = new ArrayList<>(page.size());
        for (Subscriber subscriber : page) {
            flagged.add(withRules.contains(subscriber.userId())
                    ? new Subscriber(subscriber.userId(), subscriber.mediaMask(), true, subscriber.fromSeq()) : subscriber);
        }
        return flagged;
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
