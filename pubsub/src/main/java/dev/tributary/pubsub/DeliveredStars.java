package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.storage.IdGenerator;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The stars filter rules make on delivery, in {@link Stars}' tables and under its cap. Apart from
 * {@link Stars} because delivery must not need what starring by hand checks (who may see an
 * item), whose beans themselves depend on subscribing, and so on delivery.
 */
@Component
class DeliveredStars {

    private final JdbcClient jdbc;
    private final IdGenerator ids;
    private final Inbox inbox;
    private final int max;
    private final Clock clock;
    private final XmppOutbox xmpp;

    DeliveredStars(JdbcClient jdbc, IdGenerator ids, Inbox inbox, StarSettings settings, ObjectProvider<Clock> clock,
            XmppOutbox xmpp) {
        this.xmpp = xmpp;
        this.jdbc = jdbc;
        this.ids = ids;
        this.inbox = inbox;
        this.max = settings.maxPerPerson();
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Stars items as they are delivered (a filter rule's {@link RuleAction#STAR}), inside the
     * delivering transaction: per person, in the order given, until they hold
     * {@link StarSettings#maxPerPerson} stars; the rest are skipped, not refused. Rows are written
     * before the counter, as {@link Stars#star} does, so the two never wait on each other in opposite
     * orders. Each star made is pushed to an XMPP link that asked for starred items. Returns how
     * many stars were made.
     */
    int starDelivered(Map<Long, List<Long>> itemsByUser) {
        int made = 0;
        for (Map.Entry<Long, List<Long>> wanted : itemsByUser.entrySet()) {
            long userId = wanted.getKey();
            List<Long> starred = new ArrayList<>();
            for (long itemId : wanted.getValue()) {
                if (jdbc.sql("INSERT IGNORE INTO stars (user_id, item_id, star_id, starred_at) VALUES (?, ?, ?, ?)")
                        .params(userId, itemId, ids.next(), Timestamp.from(Instant.now(clock))).update() > 0) {
                    starred.add(itemId);
                }
            }
            if (starred.isEmpty()) {
                continue;
            }
            jdbc.sql("INSERT INTO star_counts (user_id, stars) VALUES (?, ?) ON DUPLICATE KEY UPDATE stars = stars + ?")
                    .params(userId, starred.size(), starred.size()).update();
            long count = jdbc.sql("SELECT stars FROM star_counts WHERE user_id = ?").params(userId).query(Long.class).single();
            // Past the cap: take back the newest of these, as many as are over it.
            int over = (int) Math.min(starred.size(), Math.max(0, count - max));
            List<Long> skipped = starred.subList(starred.size() - over, starred.size());
            if (over > 0) {
                jdbc.sql("DELETE FROM stars WHERE user_id = :user AND item_id IN (:items)").param("user", userId)
                        .param("items", List.copyOf(skipped)).update();
                jdbc.sql("UPDATE star_counts SET stars = stars - ? WHERE user_id = ?").params(over, userId).update();
            }
            if (over < starred.size()) {
                inbox.personChanged(userId);
                // A rule's star is a star: an XMPP link that asked for starred items gets it, as for a hand star.
                for (long itemId : starred.subList(0, starred.size() - over)) {
                    xmpp.starred(userId, itemId, 0);
                }
                made += starred.size() - over;
            }
        }
        return made;
    }
}
