package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.TimelineSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The home timeline: the newest {@code tributary.timeline.max-entries} inbox entries of a
 * person, paged and filtered inside that window; a page of unread entries or of one source reads
 * the whole inbox, the unread horizon ({@link TimelineQuery#readsHorizon()}). Hydrated with one
 * multi-get per round.
 * Tombstoned items are skipped (and the page refilled), so a deletion shows at once.
 */
@Component
class TimelinePages {

    /** Rounds a page may take to refill what tombstones and the tag filter removed. */
    private static final int MAX_ROUNDS = 8;
    /** Rows per round when filtering by tag, which only the items themselves know. */
    private static final int TAG_CHUNK = 200;

    private record Row(long itemId, boolean read) {}

    private final JdbcTemplate jdbc;
    private final Items items;
    private final TimelineSettings settings;
    private final InboxMetrics metrics;

    TimelinePages(JdbcTemplate jdbc, Items items, TimelineSettings settings, InboxMetrics metrics) {
        this.metrics = metrics;
        this.jdbc = jdbc;
        this.items = items;
        this.settings = settings;
    }

    /** One page, newest first. */
    List<TimelineEntry> page(long userId, TimelineQuery query) {
        return metrics.timelinePages().record(() -> read(userId, query));
    }

    /** As {@link Inbox#entries}: one round of {@link #page}'s rows, not hydrated. */
    List<Inbox.Entry> entries(long userId, TimelineQuery query) {
        if (query.tag() != null) {
            throw new IllegalArgumentException("a tag page is filtered by its items: read it hydrated");
        }
        if (query.sourceIds() != null && query.sourceIds().isEmpty()) {
            return List.of();
        }
        boolean ascending = query.minId() != null && query.maxId() == null && query.sinceId() == null;
        return metrics.timelinePages().record(() -> rows(userId, query, ascending, null, query.limit())).stream()
                .map(row -> new Inbox.Entry(row.itemId(), row.read())).toList();
    }

    private List<TimelineEntry> read(long userId, TimelineQuery query) {
        if (query.sourceIds() != null && query.sourceIds().isEmpty()) {
            return List.of(); // an empty folder
        }
        boolean ascending = query.minId() != null && query.maxId() == null && query.sinceId() == null;
        int chunk = query.tag() == null ? query.limit() : Math.max(query.limit(), TAG_CHUNK);
        List<TimelineEntry> page = new ArrayList<>(query.limit());
        Long resume = null;
        for (int round = 0; round < MAX_ROUNDS && page.size() < query.limit(); round++) {
            List<Row> rows = rows(userId, query, ascending, resume, chunk);
            page.addAll(hydrate(rows, query, query.limit() - page.size()));
            if (rows.size() < chunk) {
                break;
            }
            resume = rows.getLast().itemId();
        }
        if (ascending) {
            Collections.reverse(page);
        }
        return page;
    }

    private List<Row> rows(long userId, TimelineQuery query, boolean ascending, Long resume, int limit) {
        StringBuilder sql = new StringBuilder("SELECT item_id, is_read FROM inbox WHERE user_id = ?");
        List<Object> args = new ArrayList<>(List.of(userId));
        if (!query.readsHorizon() && !(resume == null && limit <= settings.maxEntries() && query.readsFromTheTop())) {
            // The window's floor is the N-th newest entry: older rows (kept for the unread horizon) never show.
            sql.append(" AND item_id >= COALESCE("
                    + "(SELECT w.item_id FROM inbox w WHERE w.user_id = ? ORDER BY w.item_id DESC LIMIT 1 OFFSET ?), 0)");
            args.add(userId);
            args.add(settings.maxEntries() - 1);
        }
        condition(sql, args, "item_id < ?", query.maxId());
        condition(sql, args, "item_id > ?", query.sinceId());
        condition(sql, args, "item_id > ?", query.minId());
        condition(sql, args, ascending ? "item_id > ?" : "item_id < ?", resume);
        condition(sql, args, "source_id = ?", query.sourceId());
        if (query.sourceIds() != null) {
            sql.append(" AND source_id IN (").append(String.join(", ", Collections.nCopies(query.sourceIds().size(), "?"))).append(')');
            args.addAll(query.sourceIds());
        }
        if (query.unreadOnly()) {
            sql.append(" AND is_read = FALSE");
        }
        if (query.media() != null) {
            sql.append(" AND media IN (").append(String.join(", ", Collections.nCopies(query.media().size(), "?"))).append(')');
            query.media().forEach(type -> args.add(type.bit()));
        }
        sql.append(ascending ? " ORDER BY item_id ASC LIMIT ?" : " ORDER BY item_id DESC LIMIT ?");
        args.add(limit);
        return jdbc.query(sql.toString(), (rs, n) -> new Row(rs.getLong(1), rs.getBoolean(2)), args.toArray());
    }

    private List<TimelineEntry> hydrate(List<Row> rows, TimelineQuery query, int wanted) {
        Map<Long, Boolean> read = new HashMap<>();
        rows.forEach(row -> read.put(row.itemId(), row.read()));
        List<TimelineEntry> entries = new ArrayList<>(Math.min(wanted, rows.size()));
        for (Stored<Item> item : items.getAll(rows.stream().map(Row::itemId).toList())) {
            if (entries.size() == wanted) {
                break;
            }
            if (query.tag() == null || item.body().tags().stream().anyMatch(query.tag()::equalsIgnoreCase)) {
                entries.add(new TimelineEntry(item, read.get(item.id())));
            }
        }
        return entries;
    }

    /**
     * A page over the person's whole inbox (the unread horizon, read entries too), by item id:
     * after {@code sinceId} oldest first, else before {@code maxId} (or from the newest) newest
     * first. Tombstoned items are skipped and the page refilled.
     */
    List<TimelineEntry> horizon(long userId, @Nullable Long sinceId, @Nullable Long maxId, int limit) {
        boolean ascending = sinceId != null;
        List<TimelineEntry> page = new ArrayList<>(limit);
        Long resume = ascending ? sinceId : maxId;
        for (int round = 0; round < MAX_ROUNDS && page.size() < limit; round++) {
            List<Object> args = new ArrayList<>(List.of(userId));
            String bound = "";
            if (resume != null) {
                bound = ascending ? " AND item_id > ?" : " AND item_id < ?";
                args.add(resume);
            }
            args.add(limit);
            List<Row> rows = jdbc.query("SELECT item_id, is_read FROM inbox WHERE user_id = ?" + bound
                    + (ascending ? " ORDER BY item_id ASC LIMIT ?" : " ORDER BY item_id DESC LIMIT ?"),
                    (rs, n) -> new Row(rs.getLong(1), rs.getBoolean(2)), args.toArray());
            page.addAll(hydrate(rows, TimelineQuery.newest(1), limit - page.size()));
            if (rows.size() < limit) {
                break;
            }
            resume = rows.getLast().itemId();
        }
        return page;
    }

    /** The ids of the person's newest {@code count} entries, newest first: one range scan of the key. */
    List<Long> newestIds(long userId, int count) {
        return jdbc.queryForList("SELECT item_id FROM inbox WHERE user_id = ? ORDER BY item_id DESC LIMIT ?", Long.class,
                userId, count);
    }

    /** The person's entries among these items (others' and unknown ids are absent), newest first. */
    List<TimelineEntry> among(long userId, Collection<Long> itemIds) {
        if (itemIds.isEmpty()) {
            return List.of();
        }
        List<Object> args = new ArrayList<>(List.of(userId));
        args.addAll(itemIds);
        List<Row> rows = jdbc.query("SELECT item_id, is_read FROM inbox WHERE user_id = ? AND item_id IN ("
                + String.join(", ", Collections.nCopies(itemIds.size(), "?")) + ") ORDER BY item_id DESC",
                (rs, n) -> new Row(rs.getLong(1), rs.getBoolean(2)), args.toArray());
        return hydrate(rows, TimelineQuery.newest(1), rows.size());
    }

    private static void condition(StringBuilder sql, List<Object> args, String clause, Long value) {
        if (value != null) {
            sql.append(" AND ").append(clause);
            args.add(value);
        }
    }
}
