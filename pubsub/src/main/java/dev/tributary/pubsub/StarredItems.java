package dev.tributary.pubsub;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Whether anyone starred an item, through {@code stars_item}: what a purge keeps. Apart from
 * {@link Stars} (a person's stars), which needs the publisher's readers and would make a cycle.
 */
@Repository
class StarredItems {

    private final JdbcClient jdbc;

    StarredItems(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Which of these items anyone has starred; one query (a background job's, not a request's). */
    Set<Long> byAnyone(Collection<Long> itemIds) {
        if (itemIds.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("SELECT DISTINCT item_id FROM stars WHERE item_id IN (:items)")
                .param("items", List.copyOf(new HashSet<>(itemIds))).query(Long.class).list());
    }
}
