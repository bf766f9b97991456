package dev.tributary.api.reaction;

import dev.tributary.api.retention.RetentionJob;
import dev.tributary.api.retention.RetentionSettings;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.Writes;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Removes the comments and likes of items that were deleted (tombstoned, or purged): nobody can
 * read them any more, since every reaction endpoint asks for a live item first. Walks
 * {@code item_reactions} (one row per item with any reaction) in item-id order, a batch at a
 * time, asking pub/sub which of the batch's items are still live.
 */
@Component
class OrphanedReactions implements RetentionJob {

    private final JdbcClient jdbc;
    private final Writes tx;
    private final Items items;
    private final RetentionSettings settings;

    OrphanedReactions(JdbcClient jdbc, Writes tx, Items items, RetentionSettings settings) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.items = items;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "orphaned-comments";
    }

    @Override
    public Duration every() {
        return settings.orphanedComments().every();
    }

    @Override
    public long sweep(LongConsumer removed) {
        long total = 0;
        long after = Long.MIN_VALUE;
        List<Long> batch;
        do {
            batch = jdbc.sql("SELECT item_id FROM item_reactions WHERE item_id > ? ORDER BY item_id LIMIT ?")
                    .params(after, settings.batchSize()).query(Long.class).list();
            if (batch.isEmpty()) {
                break;
            }
            after = batch.getLast();
            List<Long> orphaned = withoutLiveItems(batch);
            if (!orphaned.isEmpty()) {
                int comments = remove(orphaned);
                removed.accept(comments);
                total += comments;
            }
        } while (batch.size() == settings.batchSize());
        return total;
    }

    private List<Long> withoutLiveItems(List<Long> ids) {
        Set<Long> live = new HashSet<>();
        for (Stored<?> item : items.getAll(ids)) {
            live.add(item.id());
        }
        return ids.stream().filter(id -> !live.contains(id)).toList();
    }

    /** Comments, likes and counts of these items, in one transaction; the number of comments removed. */
    private int remove(List<Long> itemIds) {
        return tx.write("remove reactions of " + itemIds.size() + " deleted items", () -> {
            int comments = jdbc.sql("DELETE FROM comments WHERE item_id IN (:items)").param("items", itemIds).update();
            jdbc.sql("DELETE FROM likes WHERE item_id IN (:items)").param("items", itemIds).update();
            jdbc.sql("DELETE FROM item_reactions WHERE item_id IN (:items)").param("items", itemIds).update();
            return comments;
        });
    }
}
