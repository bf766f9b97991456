package dev.tributary.api.reaction;

import dev.tributary.api.item.ReactionCounts;
import dev.tributary.pubsub.Writes;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code likes} table: one row per (item, person). Liking twice or unliking what was not
 * liked changes nothing; a change moves the item's like count in the same transaction.
 */
@Repository
class Likes {

    /** An item's like count and whether the person likes it. */
    record LikeState(long likesCount, boolean liked) {
    }

    private final JdbcClient jdbc;
    private final ReactionCounts counts;
    private final Writes tx;

    Likes(JdbcClient jdbc, ReactionCounts counts, Writes tx) {
        this.jdbc = jdbc;
        this.counts = counts;
        this.tx = tx;
    }

    /** The item's count and whether the person likes it, without changing either. */
    LikeState state(long itemId, long userId) {
        boolean liked = jdbc.sql("SELECT 1 FROM likes WHERE item_id = ? AND user_id = ?").params(itemId, userId)
                .query(Integer.class).optional().isPresent();
        return new LikeState(count(itemId), liked);
    }

    LikeState like(long itemId, long userId) {
        return tx.write("like " + itemId, () -> {
            int inserted = jdbc.sql("INSERT IGNORE INTO likes (item_id, user_id, created_at) VALUES (?, ?, UTC_TIMESTAMP(6))")
                    .params(itemId, userId).update();
            if (inserted > 0) {
                counts.add(itemId, 1, 0);
            }
            return new LikeState(count(itemId), true);
        });
    }

    LikeState unlike(long itemId, long userId) {
        return tx.write("unlike " + itemId, () -> {
            int deleted = jdbc.sql("DELETE FROM likes WHERE item_id = ? AND user_id = ?").params(itemId, userId).update();
            if (deleted > 0) {
                counts.add(itemId, -1, 0);
            }
            return new LikeState(count(itemId), false);
        });
    }

    private long count(long itemId) {
        return jdbc.sql("SELECT likes FROM item_reactions WHERE item_id = ?").param(itemId).query(Long.class).optional().orElse(0L);
    }
}
