package dev.tributary.pubsub.fanout;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Which items a feed source's latest fetched document carried ({@code source_current_items}):
 * what a new subscriber receives, so that following a feed someone else already follows gives
 * the same items an early subscriber got. Written by {@link dev.tributary.pubsub.Publisher#documentCarried}
 * inside its transaction, read by {@link SubscriptionBackfill}. Keyed by source (its sharding key).
 */
@Component
public class CurrentItems {

    /** Items kept per source, the newest: more than any back-fill delivers. */
    public static final int MAX_PER_SOURCE = 1000;

    private final JdbcClient jdbc;
    private final JdbcTemplate template;

    CurrentItems(JdbcClient jdbc, JdbcTemplate template) {
        this.jdbc = jdbc;
        this.template = template;
    }

    /**
     * Replaces the source's current items with these (the newest {@link #MAX_PER_SOURCE}), inside
     * the caller's transaction; writes nothing when the document carried the same items as the
     * last (the common case of a re-fetched feed). False if nothing changed.
     */
    public boolean replace(long sourceId, Collection<Long> itemIds) {
        List<Long> wanted = new ArrayList<>(new TreeSet<>(itemIds).descendingSet());
        if (wanted.size() > MAX_PER_SOURCE) {
            wanted = wanted.subList(0, MAX_PER_SOURCE);
        }
        List<Long> stored = jdbc.sql("SELECT item_id FROM source_current_items WHERE source_id = ? ORDER BY item_id DESC FOR UPDATE")
                .param(sourceId).query(Long.class).list();
        if (stored.equals(wanted)) {
            return false;
        }
        jdbc.sql("DELETE FROM source_current_items WHERE source_id = ?").param(sourceId).update();
        if (!wanted.isEmpty()) {
            List<Object> args = new ArrayList<>(wanted.size() * 2);
            wanted.forEach(id -> {
                args.add(sourceId);
                args.add(id);
            });
            template.update("INSERT INTO source_current_items (source_id, item_id) VALUES "
                    + String.join(", ", Collections.nCopies(wanted.size(), "(?, ?)")), args.toArray());
        }
        return true;
    }

    /**
     * Up to {@code limit} of each source's current items, newest first, in one statement; a
     * source with no recorded document is absent.
     */
    Map<Long, List<Long>> newestOf(Collection<Long> sourceIds, int limit) {
        if (sourceIds.isEmpty()) {
            return Map.of();
        }
        Map<Long, List<Long>> bySource = new HashMap<>();
        jdbc.sql("""
                SELECT source_id, item_id FROM (
                    SELECT source_id, item_id, ROW_NUMBER() OVER (PARTITION BY source_id ORDER BY item_id DESC) AS n
                    FROM source_current_items WHERE source_id IN (:ids)) newest
                WHERE n <= :limit ORDER BY source_id, item_id DESC
                """).param("ids", sourceIds).param("limit", limit)
                .query((rs, n) -> Map.entry(rs.getLong(1), rs.getLong(2))).list()
                .forEach(row -> bySource.computeIfAbsent(row.getKey(), id -> new ArrayList<>()).add(row.getValue()));
        return bySource;
    }
}
