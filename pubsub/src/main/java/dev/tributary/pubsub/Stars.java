package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * A person's starred items (the {@code stars} table): star and unstar, both idempotent; whether
 * items are starred, a page at a time for timelines; pages of stars newest starred first, as far back
 * as they go; every starred id at once (what sync APIs ask for). A star is the person's own: it does
 * not hang off their inbox, so it outlives the home window and the trimming of the inbox row. A
 * tombstoned item is left out of every answer (its row stays, and counts toward the cap, until
 * unstarred). Every statement carries the user id, the sharding key.
 */
@Service
@EnableConfigurationProperties(StarSettings.class)
public class Stars {

    /** Largest page of stars. */
    public static final int MAX_PAGE = 1000;

    private static final RowMapper<Star> STAR = (rs, n) -> new Star(rs.getLong("star_id"), rs.getLong("item_id"),
            rs.getTimestamp("starred_at").toInstant());

    private final JdbcClient jdbc;
    private final Transactions tx;
    private final IdGenerator ids;
    private final VisibleItems visible;
    private final Items items;
    private final Inbox inbox;
    private final int max;
    private final Clock clock;
    private final XmppOutbox xmpp;

    Stars(JdbcClient jdbc, Transactions tx, IdGenerator ids, VisibleItems visible, Items items, Inbox inbox,
            StarSettings settings, ObjectProvider<Clock> clock, XmppOutbox xmpp) {
        this.xmpp = xmpp;
        this.jdbc = jdbc;
        this.tx = tx;
        this.ids = ids;
        this.visible = visible;
        this.items = items;
        this.inbox = inbox;
        this.max = settings.maxPerPerson();
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /**
     * Stars an item the person may see; true if it was not starred yet (starring again keeps the
     * first star and its place in the list).
     *
     * @throws ItemNotFoundException if the item does not exist, is tombstoned or is not theirs to see
     * @throws TooManyStarsException if the person already holds {@link StarSettings#maxPerPerson} stars
     */
    public boolean star(long userId, long itemId) {
        if (visible.find(userId, itemId).isEmpty()) {
            throw new ItemNotFoundException(itemId);
        }
        return tx.write("star " + itemId, () -> {
            // A purge keeps starred items: it locks the item before it looks for stars.
            if (!items.holdLive(itemId)) {
                throw new ItemNotFoundException(itemId);
            }
            int inserted = jdbc.sql("INSERT IGNORE INTO stars (user_id, item_id, star_id, starred_at) VALUES (?, ?, ?, ?)")
                    .params(userId, itemId, ids.next(), Timestamp.from(Instant.now(clock))).update();
            if (inserted == 0) {
                return false;
            }
            // The counter row's lock serialises this person's stars: the count read here is exact.
            jdbc.sql("INSERT INTO star_counts (user_id, stars) VALUES (?, 1) ON DUPLICATE KEY UPDATE stars = stars + 1")
                    .params(userId).update();
            long count = jdbc.sql("SELECT stars FROM star_counts WHERE user_id = ?").params(userId).query(Long.class).single();
            if (count > max) {
                throw new TooManyStarsException(max);
            }
            inbox.personChanged(userId);
            xmpp.starred(userId, itemId, 0);
            return true;
        });
    }

    /**
     * Takes the star off an item; true if it was starred. An item the person starred may be
     * unstarred even if they can no longer see it.
     *
     * @throws ItemNotFoundException if it was not starred and the person cannot see it
     */
    public boolean unstar(long userId, long itemId) {
        boolean removed = tx.write("unstar " + itemId, () -> {
            int deleted = jdbc.sql("DELETE FROM stars WHERE user_id = ? AND item_id = ?").params(userId, itemId).update();
            if (deleted > 0) {
                jdbc.sql("UPDATE star_counts SET stars = stars - 1 WHERE user_id = ?").params(userId).update();
                inbox.personChanged(userId);
            }
            return deleted > 0;
        });
        if (!removed && visible.find(userId, itemId).isEmpty()) {
            throw new ItemNotFoundException(itemId);
        }
        return removed;
    }

    /** Which of these items the person has starred; one query. */
    public Set<Long> starredAmong(long userId, Collection<Long> itemIds) {
        return starredAmong(List.of(userId), itemIds).getOrDefault(userId, Set.of());
    }

    /** Which of these items each of these people has starred, by person (those with none absent); one query. */
    public Map<Long, Set<Long>> starredAmong(Collection<Long> people, Collection<Long> itemIds) {
        Map<Long, Set<Long>> starred = new java.util.HashMap<>();
        if (people.isEmpty() || itemIds.isEmpty()) {
            return starred;
        }
        jdbc.sql("SELECT user_id, item_id FROM stars WHERE user_id IN (:users) AND item_id IN (:items)")
                .param("users", List.copyOf(new HashSet<>(people))).param("items", List.copyOf(new HashSet<>(itemIds)))
                .query((rs, n) -> starred.computeIfAbsent(rs.getLong(1), user -> new HashSet<>()).add(rs.getLong(2))).list();
        return starred;
    }

    /** Whether the person has starred this item. */
    public boolean isStarred(long userId, long itemId) {
        return !starredAmong(userId, List.of(itemId)).isEmpty();
    }

    /**
     * A page of the person's starred live items, newest starred first, bounded by star ids: older
     * than {@code maxStarId}, newer than {@code sinceStarId}, or (with {@code minStarId}) the
     * oldest ones newer than it; each bound may be null.
     */
    public StarPage page(long userId, @Nullable Long maxStarId, @Nullable Long sinceStarId, @Nullable Long minStarId, int limit) {
        checkLimit(limit);
        long below = maxStarId == null ? Long.MAX_VALUE : maxStarId;
        long above = Math.max(sinceStarId == null ? 0 : sinceStarId, minStarId == null ? 0 : minStarId);
        List<Star> rows;
        if (minStarId != null) {
            rows = jdbc.sql("""
                    SELECT star_id, item_id, starred_at FROM stars
                    WHERE user_id = ? AND star_id > ? AND star_id < ? ORDER BY star_id ASC LIMIT ?""")
                    .params(userId, above, below, limit).query(STAR).list().reversed();
        } else {
            rows = jdbc.sql("""
                    SELECT star_id, item_id, starred_at FROM stars
                    WHERE user_id = ? AND star_id > ? AND star_id < ? ORDER BY star_id DESC LIMIT ?""")
                    .params(userId, above, below, limit).query(STAR).list();
        }
        if (rows.isEmpty()) {
            return new StarPage(List.of(), null, null);
        }
        Map<Long, Stored<Item>> live = items.getAll(rows.stream().map(Star::itemId).toList()).stream()
                .collect(Collectors.toMap(Stored::id, Function.identity(), (a, b) -> a));
        List<StarPage.StarredItem> starred = new ArrayList<>(rows.size());
        for (Star star : rows) {
            Stored<Item> item = live.get(star.itemId());
            if (item != null) {
                starred.add(new StarPage.StarredItem(star, item));
            }
        }
        return new StarPage(starred, rows.getFirst().starId(), rows.getLast().starId());
    }

    /**
     * The ids of every live item the person has starred, newest starred first, at most {@code limit}
     * of them (at most {@link StarSettings#maxPerPerson} exist): read a page of {@link #MAX_PAGE} at a time.
     */
    public List<Long> allItemIds(long userId, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive, not " + limit);
        }
        List<Long> all = new ArrayList<>();
        Long below = null;
        while (all.size() < limit) {
            StarPage page = page(userId, below, null, null, MAX_PAGE);
            page.items().stream().limit(limit - all.size()).forEach(s -> all.add(s.item().id()));
            if (page.oldestStarId() == null) {
                break;
            }
            below = page.oldestStarId();
        }
        return all;
    }

    /** Stars a person may hold at once. */
    public int maxPerPerson() {
        return max;
    }

    private static void checkLimit(int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_PAGE + ", not " + limit);
        }
    }
}
