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

    /** People whose entries above their horizons one statement counts: keeps the statement's text to a few KB. */
    private static final int ABOVE_PER_STATEMENT = 200;

    private static final RowMapper<InboxRow> ROW = (rs, n) -> new InboxRow(rs.getLong("user_id"), rs.getLong("item_id"),
            rs.getLong("source_id"), MediaType.ofBit(rs.getInt("media")), rs.getBoolean("is_read"), rs.getObject("story", Long.class));
    private static final RowMapper<AlsoRow> ALSO = (rs, n) -> new AlsoRow(rs.getLong("user_id"), rs.getLong("item_id"),
            rs.getLong("lead_item_id"), rs.getLong("source_id"), MediaType.ofBit(rs.getInt("media")));
    /** Rounds of the careful delivery before giving up: each needs a concurrent commit of the same story to the same people. */
    private static final int MAX_CAREFUL_ROUNDS = 10;

    private final JdbcClient jdbc;
    private final JdbcTemplate template;

    InboxTable(JdbcClient jdbc, JdbcTemplate template) {
        this.jdbc = jdbc;
        this.template = template;
    }

    /** What a delivery wrote: the new entries (which count) and the other copies of stories already held (which do not). */
    record Delivered(List<InboxRow> entries, List<AlsoRow> copies) {
        static final Delivered NOTHING = new Delivered(List.of(), List.of());
    }

    /**
     * Inserts the rows (one item to many people, or many items to one) that are not there yet, inside the caller's
     * transaction, and returns exactly what it wrote. The common case is one multi-row INSERT IGNORE; only when some
     * rows were refused (a person reached by two paths, or holding the item's story already) does it roll back to a
     * savepoint and insert, under locks, the missing entries alone, each row of a story the person holds becoming a
     * copy of that entry; so that unread counts never count an entry, or a story, twice.
     */
    Delivered deliver(List<InboxRow> rows, TransactionStatus status) {
        if (rows.isEmpty()) {
            return Delivered.NOTHING;
        }
        Object savepoint = status.createSavepoint();
        int inserted = insertIgnore(rows);
        if (inserted == rows.size()) {
            // No RELEASE SAVEPOINT: the commit releases it, and the common case saves a round trip.
            return new Delivered(rows, List.of());
        }
        status.rollbackToSavepoint(savepoint);
        status.releaseSavepoint(savepoint);
        for (int round = 0; round < MAX_CAREFUL_ROUNDS; round++) {
            Object before = status.createSavepoint();
            Set<InboxKey> present = present(rows);
            Delivered plan = leadsAndCopies(rows.stream().filter(row -> !present.contains(InboxKey.of(row))).toList());
            if (insertIgnore(plan.entries()) == plan.entries().size()) {
                insertCopies(plan.copies());
                return plan;
            }
            // A concurrent delivery committed one of these stories (or rows) to one of these people since the
            // locking reads, which do not lock keys that are absent: read again.
            status.rollbackToSavepoint(before);
            status.releaseSavepoint(before);
        }
        throw new IllegalStateException("delivery of " + rows.size() + " inbox rows kept meeting concurrent deliveries");
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
        Set<InboxKey> present = new HashSet<>();
        present(rows, "inbox", present);
        // A copy of a story is there too, as a copy (only items with a story can be one).
        present(rows.stream().filter(row -> row.story() != null).toList(), "inbox_also", present);
        return present;
    }

    private void present(List<InboxRow> rows, String table, Set<InboxKey> present) {
        if (rows.isEmpty()) {
            return;
        }
        Map<Long, List<InboxRow>> byItem = rows.stream().collect(Collectors.groupingBy(InboxRow::itemId));
        if (byItem.size() == 1) {
            long item = rows.getFirst().itemId();
            jdbc.sql("SELECT user_id FROM " + table + " WHERE item_id = :item AND user_id IN (:users) FOR UPDATE")
                    .param("item", item).param("users", rows.stream().map(InboxRow::userId).toList())
                    .query(Long.class).list().forEach(user -> present.add(new InboxKey(user, item)));
            return;
        }
        rows.stream().collect(Collectors.groupingBy(InboxRow::userId)).forEach((user, ofUser) ->
                jdbc.sql("SELECT item_id FROM " + table + " WHERE user_id = :user AND item_id IN (:items) FOR UPDATE")
                        .param("user", user).param("items", ofUser.stream().map(InboxRow::itemId).toList())
                        .query(Long.class).list().forEach(item -> present.add(new InboxKey(user, item))));
    }

    /** (user, story) of an entry. */
    private record StoryKey(long userId, long story) {}

    /**
     * Splits new rows into entries and copies: a row of a story the person holds (an entry locked
     * here, or an earlier row of this delivery) is a copy of that entry; every other row is an entry.
     */
    private Delivered leadsAndCopies(List<InboxRow> rows) {
        Map<StoryKey, Long> leads = heldStories(rows.stream().filter(row -> row.story() != null).toList());
        List<InboxRow> entries = new ArrayList<>(rows.size());
        List<AlsoRow> copies = new ArrayList<>();
        for (InboxRow row : rows) {
            if (row.story() == null) {
                entries.add(row);
                continue;
            }
            Long lead = leads.putIfAbsent(new StoryKey(row.userId(), row.story()), row.itemId());
            if (lead == null) {
                entries.add(row);
            } else {
                copies.add(AlsoRow.of(row, lead));
            }
        }
        return new Delivered(entries, copies);
    }

    /**
     * The entries these people hold of these rows' stories, locked: one query per story (fan-out
     * delivers few items to many people) or per person (a back-fill, many items to one).
     */
    private Map<StoryKey, Long> heldStories(List<InboxRow> rows) {
        Map<StoryKey, Long> held = new HashMap<>();
        if (rows.isEmpty()) {
            return held;
        }
        Map<Long, List<InboxRow>> byStory = rows.stream().collect(Collectors.groupingBy(InboxRow::story));
        Map<Long, List<InboxRow>> byUser = rows.stream().collect(Collectors.groupingBy(InboxRow::userId));
        if (byStory.size() <= byUser.size()) {
            byStory.forEach((story, ofStory) -> jdbc.sql(
                            "SELECT user_id, item_id FROM inbox WHERE story = :story AND user_id IN (:users) FOR UPDATE")
                    .param("story", story).param("users", ofStory.stream().map(InboxRow::userId).distinct().toList())
                    .query((rs, n) -> held.put(new StoryKey(rs.getLong(1), story), rs.getLong(2))).list());
        } else {
            byUser.forEach((user, ofUser) -> jdbc.sql(
                            "SELECT story, item_id FROM inbox WHERE user_id = :user AND story IN (:stories) FOR UPDATE")
                    .param("user", user).param("stories", ofUser.stream().map(InboxRow::story).distinct().toList())
                    .query((rs, n) -> held.put(new StoryKey(user, rs.getLong(1)), rs.getLong(2))).list());
        }
        return held;
    }

    /** Records copies (numbers only, written into the text as {@link #insertIgnore} does); one already there stays. */
    private void insertCopies(List<AlsoRow> copies) {
        if (copies.isEmpty()) {
            return;
        }
        StringBuilder sql = new StringBuilder(80 + copies.size() * 60)
                .append("INSERT IGNORE INTO inbox_also (user_id, item_id, lead_item_id, source_id, media) VALUES ");
        for (int i = 0; i < copies.size(); i++) {
            AlsoRow copy = copies.get(i);
            sql.append(i == 0 ? "(" : ", (").append(copy.userId()).append(", ").append(copy.itemId()).append(", ")
                    .append(copy.leadItemId()).append(", ").append(copy.sourceId()).append(", ").append(copy.media().bit())
                    .append(')');
        }
        execute(sql.toString());
    }

    private int execute(String statement) {
        Integer changed = template.execute((StatementCallback<Integer>) plain -> {
            plain.setEscapeProcessing(false);
            return plain.executeUpdate(statement);
        });
        return changed == null ? 0 : changed;
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
                .append("INSERT IGNORE INTO inbox (user_id, item_id, source_id, media, is_read, story) VALUES ");
        for (int i = 0; i < rows.size(); i++) {
            InboxRow row = rows.get(i);
            sql.append(i == 0 ? "(" : ", (").append(row.userId()).append(", ").append(row.itemId()).append(", ")
                    .append(row.sourceId()).append(", ").append(row.media().bit()).append(row.read() ? ", TRUE, " : ", FALSE, ")
                    .append(row.story() == null ? "NULL" : row.story().toString()).append(')');
        }
        return execute(sql.toString());
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

    /** Of these items, those in each of these people's inboxes and their read flags (person, then item); one query. */
    Map<Long, Map<Long, Boolean>> readStates(Collection<Long> people, Collection<Long> itemIds) {
        Map<Long, Map<Long, Boolean>> states = new HashMap<>();
        jdbc.sql("SELECT user_id, item_id, is_read FROM inbox WHERE user_id IN (:users) AND item_id IN (:items)")
                .param("users", List.copyOf(people)).param("items", List.copyOf(itemIds))
                .query((rs, n) -> states.computeIfAbsent(rs.getLong(1), user -> new HashMap<>()).put(rs.getLong(2), rs.getBoolean(3)))
                .list();
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
                .query((rs, n) -> UnreadDelta.counted(userId, rs.getLong(1), MediaType.ofBit(rs.getInt(2)), rs.getInt(3)))
                .list();
    }

    /**
     * {@link #unreadGroups}, split at the count horizon {@code horizon}: the groups of entries at or
     * below it, then those above. A locking read, as {@link #unreadGroups}.
     */
    Split unreadGroupsSplitAt(long userId, long horizon) {
        List<UnreadDelta> upTo = new ArrayList<>();
        List<UnreadDelta> above = new ArrayList<>();
        jdbc.sql("""
                SELECT source_id, media, item_id <= ? AS below, COUNT(*) FROM inbox WHERE user_id = ? AND is_read = FALSE
                GROUP BY source_id, media, below LOCK IN SHARE MODE
                """)
                .params(horizon, userId)
                .query(rs -> {
                    UnreadDelta group = UnreadDelta.counted(userId, rs.getLong(1), MediaType.ofBit(rs.getInt(2)), rs.getInt(4));
                    (rs.getBoolean(3) ? upTo : above).add(group);
                });
        return new Split(upTo, above);
    }

    /** A person's unread entries counted apart at a horizon: up to it, and above it. */
    record Split(List<UnreadDelta> upTo, List<UnreadDelta> above) {
    }

    /**
     * The person's unread entries above {@code low} and at or below {@code high}, grouped by
     * (source, media): a locking read, as {@link #unreadGroups} (a fold of the counters up to {@code high}).
     */
    List<UnreadDelta> unreadGroupsBetween(long userId, long low, long high) {
        return jdbc.sql("""
                SELECT source_id, media, COUNT(*) FROM inbox WHERE user_id = ? AND item_id > ? AND item_id <= ? AND is_read = FALSE
                GROUP BY source_id, media LOCK IN SHARE MODE
                """)
                .params(userId, low, high)
                .query((rs, n) -> UnreadDelta.counted(userId, rs.getLong(1), MediaType.ofBit(rs.getInt(2)), rs.getInt(3)))
                .list();
    }

    /**
     * For each person, their unread entries above their own horizon ({@code horizons}), grouped by
     * (source, media); how many of their entries, read or not, lie above it and at or below
     * {@code upTo} (could be folded into the counters: a person who reads everything at once has no
     * unread to fold, but every read would still scan them); and how many of the unread ones lie
     * there. One plain read for everyone (what a read of counts adds to a built hash).
     */
    Map<Long, Above> unreadAbove(Map<Long, Long> horizons, long upTo) {
        Map<Long, List<UnreadDelta>> groups = new HashMap<>();
        Map<Long, int[]> tallies = new HashMap<>();
        List<Map.Entry<Long, Long>> all = List.copyOf(horizons.entrySet());
        for (int start = 0; start < all.size(); start += ABOVE_PER_STATEMENT) {
            List<Map.Entry<Long, Long>> chunk = all.subList(start, Math.min(all.size(), start + ABOVE_PER_STATEMENT));
            List<Object> params = new ArrayList<>(2 + 2 * chunk.size());
            params.add(upTo);
            params.add(upTo);
            StringBuilder ranges = new StringBuilder();
            for (Map.Entry<Long, Long> person : chunk) {
                ranges.append(ranges.isEmpty() ? "" : " OR ").append("(user_id = ? AND item_id > ?)");
                params.add(person.getKey());
                params.add(person.getValue());
            }
            jdbc.sql("SELECT user_id, source_id, media, SUM(NOT is_read), SUM(item_id <= ?), SUM(NOT is_read AND item_id <= ?), COUNT(*)"
                    // MariaDB sorts a GROUP BY's result unless told not to; the groups go into maps.
                    + " FROM inbox WHERE " + ranges + " GROUP BY user_id, source_id, media ORDER BY NULL")
                    .params(params)
                    .query(rs -> {
                        long person = rs.getLong(1);
                        int unread = rs.getInt(4);
                        if (unread > 0) {
                            groups.computeIfAbsent(person, p -> new ArrayList<>())
                                    .add(UnreadDelta.counted(person, rs.getLong(2), MediaType.ofBit(rs.getInt(3)), unread));
                        }
                        int[] tally = tallies.computeIfAbsent(person, p -> new int[3]);
                        tally[0] += rs.getInt(5);
                        tally[1] += rs.getInt(6);
                        tally[2] += rs.getInt(7);
                    });
        }
        Map<Long, Above> above = new HashMap<>();
        horizons.keySet().forEach(person -> {
            int[] tally = tallies.getOrDefault(person, new int[3]);
            above.put(person, new Above(List.copyOf(groups.getOrDefault(person, List.of())), tally[0], tally[1], tally[2]));
        });
        return above;
    }

    /**
     * A person's unread entries above their horizon, by (source, media); how many entries, read or
     * not, could be folded; how many of the unread ones could; and how many entries, read or not,
     * lie above their horizon.
     */
    record Above(List<UnreadDelta> groups, int foldable, int foldableUnread, int entries) {

        /** How many unread entries lie above the horizon. */
        int unread() {
            return groups.stream().mapToInt(UnreadDelta::change).sum();
        }
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

    /**
     * Locks and returns up to {@code limit} of the person's oldest unread entries that are not
     * among their source's newest {@code keptPerSource} unread, oldest first. Ranked by a plain
     * read (one window over the person's unread), then locked and checked unread again.
     */
    List<InboxRow> lockOldestUnreadBeyond(long userId, int keptPerSource, int limit) {
        List<Long> ids = jdbc.sql("""
                SELECT item_id FROM (
                    SELECT item_id, ROW_NUMBER() OVER (PARTITION BY source_id ORDER BY item_id DESC) AS n
                    FROM inbox WHERE user_id = ? AND is_read = FALSE) ranked
                WHERE n > ? ORDER BY item_id LIMIT ?
                """).params(userId, keptPerSource, limit).query(Long.class).list();
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT * FROM inbox WHERE user_id = :user AND item_id IN (:ids) AND is_read = FALSE ORDER BY item_id FOR UPDATE")
                .param("user", userId).param("ids", ids).query(ROW).list();
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

    /**
     * Deletes exactly these entries (locked by the caller), so the deltas reported match what went,
     * and the other copies they stood for (trimming: the story leaves the horizon whole).
     */
    void delete(Collection<InboxRow> rows) {
        deleteEntries(rows);
        if (rows.stream().anyMatch(row -> row.story() != null)) {
            deletePairs("DELETE FROM inbox_also WHERE (user_id, lead_item_id) IN ",
                    rows.stream().filter(row -> row.story() != null).map(row -> new long[] {row.userId(), row.itemId()}).toList());
        }
    }

    /** Deletes exactly these entries, and nothing else: a retraction promotes their copies first. */
    void deleteEntries(Collection<InboxRow> rows) {
        deletePairs("DELETE FROM inbox WHERE (user_id, item_id) IN ", rows.stream().map(row -> new long[] {row.userId(), row.itemId()}).toList());
    }

    /** Deletes exactly these copies (locked by the caller). */
    void deleteCopies(Collection<AlsoRow> copies) {
        deletePairs("DELETE FROM inbox_also WHERE (user_id, item_id) IN ",
                copies.stream().map(copy -> new long[] {copy.userId(), copy.itemId()}).toList());
    }

    private void deletePairs(String statement, List<long[]> pairs) {
        if (pairs.isEmpty()) {
            return;
        }
        String tuples = String.join(", ", Collections.nCopies(pairs.size(), "(?, ?)"));
        List<Object> args = new ArrayList<>(pairs.size() * 2);
        pairs.forEach(pair -> {
            args.add(pair[0]);
            args.add(pair[1]);
        });
        template.update(statement + "(" + tuples + ")", args.toArray());
    }

    /** Locks up to {@code limit} copies that are this item, by user after {@code afterUser}: a retraction batch. */
    List<AlsoRow> lockCopiesOfItem(long itemId, long afterUser, int limit) {
        return jdbc.sql("SELECT * FROM inbox_also WHERE item_id = ? AND user_id > ? ORDER BY user_id LIMIT ? FOR UPDATE")
                .params(itemId, afterUser, limit).query(ALSO).list();
    }

    /** Locks the copies these people's entry of {@code leadItemId} stands for, by person then item. */
    List<AlsoRow> lockCopiesOfLead(long leadItemId, Collection<Long> users) {
        if (users.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                SELECT * FROM inbox_also WHERE lead_item_id = :lead AND user_id IN (:users)
                ORDER BY user_id, item_id FOR UPDATE
                """).param("lead", leadItemId).param("users", List.copyOf(users)).query(ALSO).list();
    }

    /**
     * Writes entries that take over from a retracted one (its story's slot freed in this
     * transaction, whose delete keeps it locked); every one must go in.
     */
    void insertPromoted(List<InboxRow> rows) {
        int inserted = insertIgnore(rows);
        if (inserted != rows.size()) {
            throw new IllegalStateException("only " + inserted + " of " + rows.size() + " promoted inbox entries went in");
        }
    }

    /** The person's copies of {@code oldLead} become copies of {@code newLead}. */
    void repoint(long userId, long oldLead, long newLead) {
        jdbc.sql("UPDATE inbox_also SET lead_item_id = ? WHERE user_id = ? AND lead_item_id = ?")
                .params(newLead, userId, oldLead).update();
    }

    /** Of these items, those that are copies in the person's inbox, each with the entry it is a copy of. */
    Map<Long, Long> leadsOf(long userId, Collection<Long> itemIds) {
        return itemIds.isEmpty() ? Map.of() : leadsOf(List.of(userId), itemIds).getOrDefault(userId, Map.of());
    }

    /** {@link #leadsOf(long, Collection)} of many people at once: person, then copy, then its entry; one query. */
    Map<Long, Map<Long, Long>> leadsOf(Collection<Long> people, Collection<Long> itemIds) {
        Map<Long, Map<Long, Long>> leads = new HashMap<>();
        jdbc.sql("SELECT user_id, item_id, lead_item_id FROM inbox_also WHERE user_id IN (:users) AND item_id IN (:items)")
                .param("users", List.copyOf(people)).param("items", List.copyOf(itemIds))
                .query((rs, n) -> leads.computeIfAbsent(rs.getLong(1), user -> new HashMap<>()).put(rs.getLong(2), rs.getLong(3)))
                .list();
        return leads;
    }

    /** The copies these entries of these people stand for, by person then copy. */
    List<AlsoRow> copiesOf(Collection<Long> people, Collection<Long> leadItemIds) {
        return jdbc.sql("""
                SELECT * FROM inbox_also WHERE user_id IN (:users) AND lead_item_id IN (:leads) ORDER BY user_id, item_id
                """).param("users", List.copyOf(people)).param("leads", List.copyOf(leadItemIds)).query(ALSO).list();
    }

    /** The entries standing for the person's copies from this source at or below {@code upToItemId}. */
    List<Long> leadsOfCopiesFrom(long userId, long sourceId, long upToItemId) {
        return jdbc.sql("""
                SELECT DISTINCT lead_item_id FROM inbox_also WHERE user_id = ? AND source_id = ? AND item_id <= ?
                """).params(userId, sourceId, upToItemId).query(Long.class).list();
    }
}
