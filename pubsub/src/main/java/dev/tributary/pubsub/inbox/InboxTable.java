package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.InboxScan;
import dev.tributary.pubsub.MediaType;
import dev.tributary.storage.IdGenerator;
import java.util.ArrayList;
import java.util.Optional;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.StatementCallback;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionStatus;

/**
 * The SQL of the {@code inbox} table, behind {@link Inbox}: idempotent delivery that knows exactly which rows were
 * new, read state, and the locked reads that let every change report its exact unread deltas.
 * Every statement carries the user id (the sharding key), except retraction by item.
 */
@Component
class InboxTable {

    private static final RowMapper<InboxRow> ROW = (rs, n) -> new InboxRow(rs.getLong("user_id"), rs.getLong("item_id"),
            rs.getLong("source_id"), MediaType.ofBit(rs.getInt("media")), rs.getBoolean("is_read"));

    private final JdbcClient jdbc;
    private final JdbcTemplate template;

    InboxTable(JdbcClient jdbc, JdbcTemplate template) {
        this.jdbc = jdbc;
        this.template = template;
    }

    /**
     * Inserts the rows (one item to many people, or many items to one) that are not there yet and returns exactly those, inside
     * the caller's transaction. The common case is one multi-row INSERT IGNORE; only when some
     * rows already existed (a person reached by two paths) does it roll back to a savepoint and
     * insert the missing rows alone, so that unread counts never count an entry twice.
     */
    List<InboxRow> deliver(List<InboxRow> rows, TransactionStatus status) {
        if (rows.isEmpty()) {
            return List.of();
        }
        Object savepoint = status.createSavepoint();
        int inserted = insertIgnore(rows);
        if (inserted == rows.size()) {
            // No RELEASE SAVEPOINT: the commit releases it, and the common case saves a round trip.
            return rows;
        }
        status.rollbackToSavepoint(savepoint);
        status.releaseSavepoint(savepoint);
        Set<InboxKey> present = present(rows);
        List<InboxRow> missing = rows.stream().filter(row -> !present.contains(InboxKey.of(row))).toList();
        insertIgnore(missing);
        return missing;
    }

    /**
     * Inserts the rows, all of them new, inside a transaction the caller owns: one multi-row
     * INSERT IGNORE and no savepoint. If any was there already, that is a
     * {@link Inbox.Conflict}: the caller rolls the whole transaction back and delivers again with
     * {@link #deliver}, which finds exactly the new ones.
     */
    void insertNew(List<InboxRow> rows) {
        if (insertIgnore(rows) != rows.size()) {
            throw new Inbox.Conflict(rows.size());
        }
    }

    /** (user, item) of an inbox row. */
    private record InboxKey(long userId, long itemId) {
        static InboxKey of(InboxRow row) {
            return new InboxKey(row.userId(), row.itemId());
        }
    }

    /**
     * Which of the rows are already there, locked. Fan-out delivers one item to many people,
     * a back-fill many items to one person: both shapes are one indexed query per item or person.
     */
    private Set<InboxKey> present(List<InboxRow> rows) {
        Map<Long, List<InboxRow>> byItem = rows.stream().collect(Collectors.groupingBy(InboxRow::itemId));
        Set<InboxKey> present = new HashSet<>();
        if (byItem.size() == 1) {
            long item = rows.getFirst().itemId();
            jdbc.sql("SELECT user_id FROM inbox WHERE item_id = :item AND user_id IN (:users) FOR UPDATE")
                    .param("item", item).param("users", rows.stream().map(InboxRow::userId).toList())
                    .query(Long.class).list().forEach(user -> present.add(new InboxKey(user, item)));
            return present;
        }
        rows.stream().collect(Collectors.groupingBy(InboxRow::userId)).forEach((user, ofUser) ->
                jdbc.sql("SELECT item_id FROM inbox WHERE user_id = :user AND item_id IN (:items) FOR UPDATE")
                        .param("user", user).param("items", ofUser.stream().map(InboxRow::itemId).toList())
                        .query(Long.class).list().forEach(item -> present.add(new InboxKey(user, item))));
        return present;
    }

    /**
     * One multi-row INSERT IGNORE with the numbers written into its text. Not placeholders: the
     * driver prepares client-side, parsing a statement of four thousand of them on every batch,
     * which profiled at ~40 % of a fan-out worker's CPU; the text on the wire is the same. Every
     * value is a Java {@code long} or {@code int}, so nothing needs quoting.
     */
    private int insertIgnore(List<InboxRow> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        StringBuilder sql = new StringBuilder(80 + rows.size() * 52)
                .append("INSERT IGNORE INTO inbox (user_id, item_id, source_id, media, is_read) VALUES ");
        for (int i = 0; i < rows.size(); i++) {
            InboxRow row = rows.get(i);
            sql.append(i == 0 ? "(" : ", (").append(row.userId()).append(", ").append(row.itemId()).append(", ")
                    .append(row.sourceId()).append(", ").append(row.media().bit()).append(row.read() ? ", TRUE)" : ", FALSE)");
        }
        String statement = sql.toString();
        Integer inserted = template.execute((StatementCallback<Integer>) plain -> {
            plain.setEscapeProcessing(false);
            return plain.executeUpdate(statement);
        });
        return inserted == null ? 0 : inserted;
    }

    /** Up to {@code limit} users after {@code afterUser} whose inbox holds the item (a plain read). */
    List<Long> recipientsAfter(long itemId, long afterUser, int limit) {
        return jdbc.sql("SELECT user_id FROM inbox WHERE item_id = ? AND user_id > ? ORDER BY user_id LIMIT ?")
                .params(itemId, afterUser, limit)
                .query(Long.class)
                .list();
    }

    /** Which of {@code itemIds} are in the person's inbox and read: one query over their inbox rows. */
    Set<Long> readAmong(long userId, Collection<Long> itemIds) {
        if (itemIds.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("""
                SELECT item_id FROM inbox WHERE user_id = :user AND item_id IN (:items) AND is_read = TRUE
                """).param("user", userId).param("items", itemIds).query(Long.class).list());
    }

    Optional<InboxRow> find(long userId, long itemId) {
        return jdbc.sql("SELECT * FROM inbox WHERE user_id = ? AND item_id = ?").params(userId, itemId).query(ROW).optional();
    }

    /** Sets one entry's read flag; the row as it was if this changed it. */
    Optional<InboxRow> setRead(long userId, long itemId, boolean read) {
        Optional<InboxRow> row = jdbc.sql("SELECT * FROM inbox WHERE user_id = ? AND item_id = ? FOR UPDATE")
                .params(userId, itemId).query(ROW).optional();
        if (row.isEmpty() || row.get().read() == read) {
            return Optional.empty();
        }
        jdbc.sql("UPDATE inbox SET is_read = ? WHERE user_id = ? AND item_id = ?").params(read, userId, itemId).update();
        return row;
    }

    /** Locks those of these entries whose flag is not {@code read}, sets it, and returns them as they were. */
    List<InboxRow> setRead(long userId, Collection<Long> itemIds, boolean read) {
        List<InboxRow> rows = jdbc.sql("SELECT * FROM inbox WHERE user_id = :user AND item_id IN (:items) AND is_read = :was"
                        + " FOR UPDATE")
                .param("user", userId).param("items", List.copyOf(itemIds)).param("was", !read)
                .query(ROW).list();
        if (!rows.isEmpty()) {
            jdbc.sql("UPDATE inbox SET is_read = :read WHERE user_id = :user AND item_id IN (:items)")
                    .param("read", read).param("user", userId)
                    .param("items", rows.stream().map(InboxRow::itemId).toList())
                    .update();
        }
        return rows;
    }

    /** Of these items, those in the person's inbox and their read flags. */
    Map<Long, Boolean> readStates(long userId, Collection<Long> itemIds) {
        Map<Long, Boolean> states = new HashMap<>();
        jdbc.sql("SELECT item_id, is_read FROM inbox WHERE user_id = :user AND item_id IN (:items)")
                .param("user", userId).param("items", List.copyOf(itemIds))
                .query((rs, n) -> states.put(rs.getLong(1), rs.getBoolean(2))).list();
        return states;
    }

    /** Which of these items are in the person's inbox. */
    Set<Long> heldAmong(long userId, Collection<Long> itemIds) {
        return new HashSet<>(jdbc.sql("SELECT item_id FROM inbox WHERE user_id = :user AND item_id IN (:items)")
                .param("user", userId).param("items", List.copyOf(itemIds)).query(Long.class).list());
    }

    /** The ids a scan selects: one range scan of the person's rows in the primary key's order. */
    List<Long> ids(long userId, InboxScan scan) {
        StringBuilder sql = new StringBuilder("SELECT item_id FROM inbox WHERE user_id = :user");
        Map<String, Object> args = new HashMap<>();
        args.put("user", userId);
        if (scan.reads() != InboxScan.Reads.ANY) {
            sql.append(" AND is_read = :read");
            args.put("read", scan.reads() == InboxScan.Reads.READ);
        }
        if (scan.sourceIds() != null) {
            sql.append(" AND source_id IN (:sources)");
            args.put("sources", List.copyOf(scan.sourceIds()));
        }
        if (scan.newerThan() != null) {
            sql.append(" AND item_id >= :lowest");
            args.put("lowest", IdGenerator.lowestIdAt(scan.newerThan()));
        }
        if (scan.olderThan() != null) {
            sql.append(" AND item_id < :highest");
            args.put("highest", IdGenerator.lowestIdAt(scan.olderThan()));
        }
        if (scan.after() != null) {
            sql.append(scan.oldestFirst() ? " AND item_id > :after" : " AND item_id < :after");
            args.put("after", scan.after());
        }
        sql.append(scan.oldestFirst() ? " ORDER BY item_id ASC" : " ORDER BY item_id DESC").append(" LIMIT :limit");
        args.put("limit", scan.limit());
        return jdbc.sql(sql.toString()).params(args).query(Long.class).list();
    }

    /**
     * Marks read up to {@code limit} unread entries at or below {@code upToItemId} (of one source or
     * all), the newest first, locking them; the rows it changed. One batch of a "mark all read".
     */
    List<InboxRow> markReadUpTo(long userId, long upToItemId, Long sourceId, int limit) {
        List<InboxRow> rows = jdbc.sql("""
                SELECT * FROM inbox WHERE user_id = ? AND item_id <= ? AND is_read = FALSE
                """ + (sourceId == null ? "" : " AND source_id = ?") + " ORDER BY item_id DESC LIMIT ? FOR UPDATE")
                .params(sourceId == null ? List.of(userId, upToItemId, limit) : List.of(userId, upToItemId, sourceId, limit))
                .query(ROW)
                .list();
        if (!rows.isEmpty()) {
            jdbc.sql("UPDATE inbox SET is_read = TRUE WHERE user_id = :user AND item_id IN (:items)")
                    .param("user", userId)
                    .param("items", rows.stream().map(InboxRow::itemId).toList())
                    .update();
        }
        return rows;
    }

    /**
     * Unread entries of a person grouped by (source, media): the truth the Redis counters are
     * rebuilt from. A locking read, so it waits for every writer holding one of the person's rows
     * (those writers move the counters before they commit; see UnreadCounters).
     */
    List<UnreadDelta> unreadGroups(long userId) {
        return jdbc.sql("""
                SELECT source_id, media, COUNT(*) FROM inbox WHERE user_id = ? AND is_read = FALSE
                GROUP BY source_id, media LOCK IN SHARE MODE
                """)
                .param(userId)
                .query((rs, n) -> new UnreadDelta(userId, rs.getLong(1), MediaType.ofBit(rs.getInt(2)), rs.getInt(3)))
                .list();
    }

    /** Locks and returns up to {@code limit} entries whose item id is below {@code floorItemId}, oldest first. */
    List<InboxRow> lockOlderThan(long userId, long floorItemId, int limit) {
        return jdbc.sql("SELECT * FROM inbox WHERE user_id = ? AND item_id < ? ORDER BY item_id LIMIT ? FOR UPDATE")
                .params(userId, floorItemId, limit).query(ROW).list();
    }

    /** Locks and returns up to {@code limit} of the person's oldest entries that are read (or unread), oldest first. */
    List<InboxRow> lockOldest(long userId, boolean read, int limit) {
        return jdbc.sql("SELECT * FROM inbox WHERE user_id = ? AND is_read = ? ORDER BY item_id LIMIT ? FOR UPDATE")
                .params(userId, read, limit).query(ROW).list();
    }

    /** Up to {@code limit} of the person's unread item ids, newest first. */
    List<Long> unreadIds(long userId, int limit) {
        return jdbc.sql("SELECT item_id FROM inbox WHERE user_id = ? AND is_read = FALSE ORDER BY item_id DESC LIMIT ?")
                .params(userId, limit).query(Long.class).list();
    }

    /** Entries in the person's inbox (one range scan of the primary key, at most the horizon's size plus what awaits trimming). */
    int count(long userId) {
        return jdbc.sql("SELECT COUNT(*) FROM inbox WHERE user_id = ?").param(userId).query(Integer.class).single();
    }

    /** Adds to the person's count of unread entries lost to trimming, locking its row until the caller commits. */
    void addTrimmedUnread(long userId, long count) {
        jdbc.sql("INSERT INTO inbox_trimmed (user_id, unread) VALUES (?, ?) ON DUPLICATE KEY UPDATE unread = unread + ?")
                .params(userId, count, count).update();
    }

    /**
     * Unread entries the person lost to trimming; a locking read, so a rebuild waits for a trim
     * that is still moving it (as {@link #unreadGroups} waits for the rows).
     */
    long trimmedUnread(long userId) {
        return jdbc.sql("SELECT unread FROM inbox_trimmed WHERE user_id = ? LOCK IN SHARE MODE")
                .param(userId).query(Long.class).optional().orElse(0L);
    }

    /** Locks up to {@code limit} entries of an item, by user after {@code afterUser}: a retraction batch. */
    List<InboxRow> lockRowsOfItem(long itemId, long afterUser, int limit) {
        return jdbc.sql("SELECT * FROM inbox WHERE item_id = ? AND user_id > ? ORDER BY user_id LIMIT ? FOR UPDATE")
                .params(itemId, afterUser, limit).query(ROW).list();
    }

    /** Deletes exactly these entries (locked by the caller), so the deltas reported match what went. */
    void delete(Collection<InboxRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        String tuples = String.join(", ", Collections.nCopies(rows.size(), "(?, ?)"));
        List<Object> args = new ArrayList<>(rows.size() * 2);
        rows.forEach(row -> {
            args.add(row.userId());
            args.add(row.itemId());
        });
        template.update("DELETE FROM inbox WHERE (user_id, item_id) IN (" + tuples + ")", args.toArray());
    }
}
