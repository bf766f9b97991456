package dev.tributary.api.item;

import dev.tributary.pubsub.HomeFeed;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The per-item like and comment counts in {@code item_reactions}: read for every page of items,
 * moved by whoever adds or removes a like or comment, in that write's transaction.
 */
@Repository
public class ReactionCounts {

    private final JdbcClient jdbc;
    private final HomeFeed home;

    ReactionCounts(JdbcClient jdbc, HomeFeed home) {
        this.jdbc = jdbc;
        this.home = home;
    }

    /** The counts of these items in one query; items nobody reacted to are absent. */
    public Map<Long, ReactionCount> of(Collection<Long> itemIds) {
        Map<Long, ReactionCount> counts = new HashMap<>();
        if (itemIds.isEmpty()) {
            return counts;
        }
        jdbc.sql("SELECT item_id, likes, comments FROM item_reactions WHERE item_id IN (:items)")
                .param("items", itemIds)
                .query(rs -> {
                    counts.put(rs.getLong(1), new ReactionCount(rs.getLong(2), rs.getLong(3)));
                });
        return counts;
    }

    /**
     * Moves an item's counts by the given amounts (inside the caller's transaction); pages that
     * show the item are void once it commits.
     */
    public void add(long itemId, int likes, int comments) {
        home.itemShownChanged(itemId);
        jdbc.sql("""
                INSERT INTO item_reactions (item_id, likes, comments) VALUES (:item, GREATEST(:likes, 0), GREATEST(:comments, 0))
                ON DUPLICATE KEY UPDATE likes = GREATEST(likes + :likes, 0), comments = GREATEST(comments + :comments, 0)
                """).param("item", itemId).param("likes", likes).param("comments", comments).update();
    }
}
