package dev.tributary.api.reaction;

import dev.tributary.api.item.ReactionCounts;
import dev.tributary.api.ratelimit.ActionRates;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.ItemNotFoundException;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.NewIds;
import dev.tributary.pubsub.Writes;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code comments} table. Adding or deleting a comment moves the item's comment count in
 * the same transaction, so the counts shown with items stay exact.
 */
@Repository
class Comments {

    private static final RowMapper<Comment> ROW = (rs, n) -> new Comment(rs.getLong("id"), rs.getLong("item_id"),
            rs.getLong("user_id"), rs.getString("text"), rs.getTimestamp("created_at").toInstant());

    private final JdbcClient jdbc;
    private final ReactionCounts counts;
    private final NewIds ids;
    private final Writes tx;
    private final ActionRates rates;
    private final Items items;
    private final Clock clock = Clock.systemUTC();

    Comments(JdbcClient jdbc, ReactionCounts counts, NewIds ids, Writes tx, ActionRates rates, Items items) {
        this.rates = rates;
        this.items = items;
        this.jdbc = jdbc;
        this.counts = counts;
        this.ids = ids;
        this.tx = tx;
    }

    /**
     * A page of an item's comments, oldest first. With no cursor or {@code min_id} it reads
     * forwards (the oldest after the cursor); with {@code max_id} or {@code since_id} it takes
     * the newest that match and shows them oldest first.
     */
    List<Comment> page(long itemId, Paging paging) {
        boolean forwards = paging.maxId() == null && paging.sinceId() == null;
        StringBuilder sql = new StringBuilder("SELECT * FROM comments WHERE item_id = ?");
        List<Object> args = new ArrayList<>(List.of(itemId));
        condition(sql, args, "id < ?", paging.maxId());
        condition(sql, args, "id > ?", paging.sinceId());
        condition(sql, args, "id > ?", paging.minId());
        sql.append(forwards ? " ORDER BY id ASC LIMIT ?" : " ORDER BY id DESC LIMIT ?");
        args.add(paging.limit());
        List<Comment> page = new ArrayList<>(jdbc.sql(sql.toString()).params(args).query(ROW).list());
        if (!forwards) {
            Collections.reverse(page);
        }
        return page;
    }

    Optional<Comment> find(long commentId) {
        return jdbc.sql("SELECT * FROM comments WHERE id = ?").param(commentId).query(ROW).optional();
    }

    /** @throws dev.tributary.api.web.ApiProblem 429 if the person has written their comments for this minute */
    Comment add(long itemId, long userId, String text) {
        rates.take(userId, ActionRates.Action.COMMENT);
        Comment comment = new Comment(ids.next(), itemId, userId, text, clock.instant().truncatedTo(ChronoUnit.MICROS));
        tx.run("add a comment to " + itemId, () -> {
            // A purge keeps commented items: it locks the item before it looks for comments.
            if (!items.holdLive(itemId)) {
                throw new ItemNotFoundException(itemId);
            }
            jdbc.sql("INSERT INTO comments (item_id, id, user_id, text, created_at) VALUES (?, ?, ?, ?, ?)")
                    .params(comment.itemId(), comment.id(), comment.userId(), comment.text(), comment.createdAt())
                    .update();
            counts.add(itemId, 0, 1);
        });
        return comment;
    }

    /** Deletes a comment; false if it was gone already (a concurrent delete won, and moved the count). */
    boolean delete(Comment comment) {
        return tx.write("delete comment " + comment.id(), () -> {
            int deleted = jdbc.sql("DELETE FROM comments WHERE item_id = ? AND id = ?")
                    .params(comment.itemId(), comment.id()).update();
            if (deleted > 0) {
                counts.add(comment.itemId(), 0, -1);
            }
            return deleted > 0;
        });
    }

    private static void condition(StringBuilder sql, List<Object> args, String clause, Long value) {
        if (value != null) {
            sql.append(" AND ").append(clause);
            args.add(value);
        }
    }
}
