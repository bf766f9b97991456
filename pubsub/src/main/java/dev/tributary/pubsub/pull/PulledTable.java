package dev.tributary.pubsub.pull;

import dev.tributary.pubsub.MediaType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The SQL of {@code pulled_items}, {@code pulled_reads} and {@code pulled_marks}. A pulled item's
 * read state for a person is, in this order: their inbox row if one exists (the item reached
 * them pushed through a relaying profile), else their exception in {@code pulled_marks}, else
 * whether it is at or below their {@code read_upto}. Every read below applies the same rule.
 */
@Component
class PulledTable {

    /** One pulled item as a person sees it. */
    record Row(long itemId, boolean read) {}

    /** Unread pulled items of a person by source and media, and the oldest of them. */
    record UnreadGroup(long sourceId, MediaType media, long count, long oldest) {}

    /** Bounds of a read: item ids at least {@code lowest}, below {@code below}, above {@code above}. */
    record Bounds(long lowest, @Nullable Long below, @Nullable Long above, boolean ascending) {}

    private static final String READ = "COALESCE(m.is_read, p.item_id <= :upto)";
    private static final String NOT_IN_INBOX = "NOT EXISTS (SELECT 1 FROM inbox i WHERE i.user_id = :user AND i.item_id = p.item_id)";

    /**
     * The parts of a person's pulled entries every count and check below shares: their follows of
     * pulled sources with their read positions ({@code s}, {@code r}), an item of the source as an
     * entry of theirs ({@code p}: at or after their start and the horizon's floor, taken by their
     * media filter), with its own mark ({@code m}), and not theirs otherwise (in their inbox, or a
     * pair pushed past their cap).
     */
    private static final String FOLLOWS = """
            FROM subscriptions s
            JOIN source_audiences a ON a.source_id = s.source_id AND a.ever_pulled
            LEFT JOIN pulled_reads r ON r.user_id = s.user_id AND r.source_id = s.source_id
            """;
    private static final String AS_ENTRY = "p.item_id >= GREATEST(COALESCE(r.from_id, 0), :keep) AND (s.media_mask & p.media) <> 0";
    private static final String MARKS = """
            LEFT JOIN pulled_marks m ON m.user_id = s.user_id AND m.source_id = p.source_id AND m.item_id = p.item_id
            """;
    private static final String IS_READ = "COALESCE(m.is_read, p.item_id <= COALESCE(r.read_upto, 0))";
    private static final String NOT_ELSEWHERE = """
              AND NOT EXISTS (SELECT 1 FROM inbox i WHERE i.user_id = s.user_id AND i.item_id = p.item_id)
              AND NOT EXISTS (SELECT 1 FROM subscribers x WHERE x.source_id = -s.source_id AND x.user_id = s.user_id)
            """;

    private final JdbcClient jdbc;

    PulledTable(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Sources that have ever been pulled, after {@code afterSourceId} in id order, at most {@code limit}. */
    List<Long> everPulled(long afterSourceId, int limit) {
        return jdbc.sql("SELECT source_id FROM source_audiences WHERE ever_pulled AND source_id > ? ORDER BY source_id LIMIT ?")
                .params(afterSourceId, limit).query(Long.class).list();
    }

    /** Deletes at most {@code limit} of the source's pulled rows below {@code floor}, oldest first; how many went. */
    int removeBelow(long sourceId, long floor, int limit) {
        return jdbc.sql("DELETE FROM pulled_items WHERE source_id = ? AND item_id < ? ORDER BY item_id LIMIT ?")
                .params(sourceId, floor, limit).update();
    }

    /** Deletes at most {@code limit} of the person-by-person read exceptions of items below {@code floor}; how many went. */
    int removeMarksBelow(long floor, int limit) {
        return jdbc.sql("DELETE FROM pulled_marks WHERE item_id < ? LIMIT ?").params(floor, limit).update();
    }

    /** The person's follows of sources that have ever been pulled: one join over their subscriptions. */
    List<PulledFollow> follows(long userId) {
        return jdbc.sql("""
                SELECT s.source_id, s.media_mask, COALESCE(r.from_id, 0), COALESCE(r.read_upto, 0)
                FROM subscriptions s
                JOIN source_audiences a ON a.source_id = s.source_id AND a.ever_pulled
                LEFT JOIN pulled_reads r ON r.user_id = s.user_id AND r.source_id = s.source_id
                WHERE s.user_id = ?
                  AND NOT EXISTS (SELECT 1 FROM subscribers x WHERE x.source_id = -s.source_id AND x.user_id = s.user_id)
                ORDER BY s.source_id
                """).param(userId)
                .query((rs, n) -> new PulledFollow(rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getLong(4)))
                .list();
    }

    /**
     * {@link #follows(long)} of these sources only (the person's pulled sources as a node keeps
     * them): primary-key reads instead of a join over every subscription.
     */
    List<PulledFollow> follows(long userId, List<Long> sourceIds) {
        if (sourceIds.isEmpty()) {
            return List.of();
        }
        List<Object> args = new ArrayList<>(sourceIds.size() + 1);
        args.add(userId);
        args.addAll(sourceIds);
        return jdbc.sql("""
                SELECT s.source_id, s.media_mask, COALESCE(r.from_id, 0), COALESCE(r.read_upto, 0)
                FROM subscriptions s
                LEFT JOIN pulled_reads r ON r.user_id = s.user_id AND r.source_id = s.source_id
                WHERE s.user_id = ? AND s.source_id IN (%s)
                ORDER BY s.source_id
                """.formatted(String.join(", ", java.util.Collections.nCopies(sourceIds.size(), "?"))))
                .params(args)
                .query((rs, n) -> new PulledFollow(rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getLong(4)))
                .list();
    }

    /**
     * Stores the items pulled, numbered on from the source's sequence; the caller's transaction
     * holds the source's {@code source_audiences} row, so numbers follow the order of commits.
     */
    void add(long sourceId, Map<Long, MediaType> items) {
        if (items.isEmpty()) {
            return;
        }
        jdbc.sql("UPDATE source_audiences SET pulled_seq = pulled_seq + ? WHERE source_id = ?").params(items.size(), sourceId).update();
        long seq = jdbc.sql("SELECT pulled_seq FROM source_audiences WHERE source_id = ?").param(sourceId).query(Long.class).single()
                - items.size();
        List<Object> args = new ArrayList<>(items.size() * 4);
        for (Map.Entry<Long, MediaType> item : items.entrySet()) {
            args.addAll(List.of(sourceId, item.getKey(), item.getValue().bit(), ++seq));
        }
        jdbc.sql("INSERT IGNORE INTO pulled_items (source_id, item_id, media, seq) VALUES "
                + String.join(", ", java.util.Collections.nCopies(items.size(), "(?, ?, ?, ?)"))).params(args).update();
    }

    /** Removes a tombstoned item, counting the removal for its source; true if it was pulled. */
    boolean remove(long sourceId, long itemId) {
        if (jdbc.sql("DELETE FROM pulled_items WHERE source_id = ? AND item_id = ?").params(sourceId, itemId).update() == 0) {
            return false;
        }
        jdbc.sql("INSERT INTO pulled_removals (source_id, removed) VALUES (?, 1) ON DUPLICATE KEY UPDATE removed = removed + 1")
                .param(sourceId).update();
        return true;
    }

    /** Which of these (source id, item id) pairs are pulled items, as item ids: one statement. */
    Set<Long> pulledAmong(Collection<long[]> pairs) {
        if (pairs.isEmpty()) {
            return Set.of();
        }
        List<Object> args = new ArrayList<>(pairs.size() * 2);
        pairs.forEach(pair -> {
            args.add(pair[0]);
            args.add(pair[1]);
        });
        return new HashSet<>(jdbc.sql("SELECT item_id FROM pulled_items WHERE (source_id, item_id) IN ("
                + String.join(", ", java.util.Collections.nCopies(pairs.size(), "(?, ?)")) + ")")
                .params(args).query(Long.class).list());
    }

    /**
     * Of these people and pulled items of one source, the (person, item) pairs the person has read
     * as pulled entries, their read positions locked shared: a concurrent mark either committed
     * before and is seen, or waits for the caller's transaction.
     */
    Set<List<Long>> readAsPulled(long sourceId, Collection<Long> itemIds, Collection<Long> userIds) {
        Set<List<Long>> read = new HashSet<>();
        jdbc.sql("""
                SELECT r.user_id, p.item_id FROM pulled_reads r
                JOIN pulled_items p ON p.source_id = r.source_id AND p.item_id IN (:items)
                LEFT JOIN pulled_marks m ON m.user_id = r.user_id AND m.source_id = r.source_id AND m.item_id = p.item_id
                WHERE r.source_id = :source AND r.user_id IN (:users) AND COALESCE(m.is_read, p.item_id <= r.read_upto)
                LOCK IN SHARE MODE
                """)
                .param("items", itemIds).param("source", sourceId).param("users", userIds)
                .query(rs -> {
                    read.add(List.of(rs.getLong(1), rs.getLong(2)));
                });
        return read;
    }

    /** The id of the {@code count}-th newest pulled item of the source; empty if it has fewer. */
    Optional<Long> nthNewest(long sourceId, int count) {
        return jdbc.sql("SELECT item_id FROM pulled_items WHERE source_id = ? ORDER BY item_id DESC LIMIT 1 OFFSET ?")
                .params(sourceId, count - 1).query(Long.class).optional();
    }

    /** The newest pulled item of the source; empty if it has none. */
    Optional<Long> newest(long sourceId) {
        return jdbc.sql("SELECT MAX(item_id) FROM pulled_items WHERE source_id = ?").param(sourceId)
                .query((rs, n) -> (Long) rs.getObject(1, Long.class)).optional();
    }

    /**
     * The audience through which a pulled source's items are still pushed to the few people past
     * {@code tributary.fanout.max-pulled-sources}: rows of {@code subscribers} under the source's
     * negated id, which fan-out pages like any audience (the inbox rows carry the real source).
     */
    static long pushedAudience(long sourceId) {
        return -sourceId;
    }

    void pushPair(long userId, long sourceId, int mask) {
        jdbc.sql("INSERT IGNORE INTO subscribers (source_id, user_id, media_mask) VALUES (?, ?, ?)")
                .params(pushedAudience(sourceId), userId, mask).update();
    }

    void dropPair(long userId, long sourceId) {
        jdbc.sql("DELETE FROM subscribers WHERE source_id = ? AND user_id = ?").params(pushedAudience(sourceId), userId).update();
    }

    boolean isPushedPair(long userId, long sourceId) {
        return jdbc.sql("SELECT COUNT(*) FROM subscribers WHERE source_id = ? AND user_id = ?")
                .params(pushedAudience(sourceId), userId).query(Long.class).single() > 0;
    }

    boolean hasPushedPairs(long sourceId) {
        return !jdbc.sql("SELECT user_id FROM subscribers WHERE source_id = ? LIMIT 1").param(pushedAudience(sourceId))
                .query(Long.class).list().isEmpty();
    }

    /** A new follow: the person's pulled items begin at {@code fromId}; a read position kept from an earlier follow stays. */
    void start(long userId, long sourceId, long fromId) {
        jdbc.sql("""
                INSERT INTO pulled_reads (user_id, source_id, from_id, read_upto) VALUES (?, ?, ?, 0)
                ON DUPLICATE KEY UPDATE from_id = VALUES(from_id)
                """).params(userId, sourceId, fromId).update();
    }

    /**
     * Up to {@code limit} of the person's pulled items of one follow, within the bounds, of these
     * media (bits), unread ones only if asked; newest first or oldest first.
     */
    List<Row> rows(long userId, PulledFollow follow, Bounds bounds, List<Integer> media, boolean unreadOnly, int limit) {
        return rows(userId, follow, bounds, media, unreadOnly ? Boolean.FALSE : null, null, limit);
    }

    /**
     * As {@link #rows(long, PulledFollow, Bounds, List, boolean, int)}, by read state ({@code read}
     * null: any) and, if {@code among} is given, only these items.
     */
    List<Row> rows(long userId, PulledFollow follow, Bounds bounds, List<Integer> media, @Nullable Boolean read,
            @Nullable Collection<Long> among, int limit) {
        StringBuilder sql = new StringBuilder("SELECT p.item_id, " + READ + " FROM pulled_items p"
                + " LEFT JOIN pulled_marks m ON m.user_id = :user AND m.source_id = p.source_id AND m.item_id = p.item_id"
                + " WHERE p.source_id = :source AND p.item_id >= :lowest AND p.media IN (:media) AND " + NOT_IN_INBOX);
        if (bounds.below() != null) {
            sql.append(" AND p.item_id < :below");
        }
        if (bounds.above() != null) {
            sql.append(" AND p.item_id > :above");
        }
        if (read != null) {
            sql.append(" AND ").append(READ).append(read ? " = TRUE" : " = FALSE");
        }
        if (among != null) {
            sql.append(" AND p.item_id IN (:among)");
        }
        sql.append(bounds.ascending() ? " ORDER BY p.item_id ASC" : " ORDER BY p.item_id DESC").append(" LIMIT :limit");
        JdbcClient.StatementSpec spec = jdbc.sql(sql.toString())
                .param("user", userId).param("source", follow.sourceId()).param("lowest", bounds.lowest())
                .param("media", media).param("upto", follow.readUpto()).param("limit", limit);
        if (bounds.below() != null) {
            spec = spec.param("below", bounds.below());
        }
        if (bounds.above() != null) {
            spec = spec.param("above", bounds.above());
        }
        if (among != null) {
            spec = spec.param("among", List.copyOf(among));
        }
        return spec.query((rs, n) -> new Row(rs.getLong(1), rs.getBoolean(2))).list();
    }

    /** One source's part of {@link #rowsOfAll}: its follow, bounds and media (bits). */
    record Read(PulledFollow follow, Bounds bounds, List<Integer> media) {}

    /**
     * {@link #rows} of several pulled sources in one statement: one bounded read per source
     * ({@code limit} rows each, by the source's primary-key range), united and cut to
     * {@code limit}, newest first (oldest first if the reads ascend).
     */
    List<Row> rowsOfAll(long userId, List<Read> reads, @Nullable Boolean read, int limit, boolean ascending) {
        if (reads.isEmpty()) {
            return List.of();
        }
        List<Object> args = new ArrayList<>();
        List<String> parts = new ArrayList<>(reads.size());
        for (Read one : reads) {
            parts.add("(" + oneRead(userId, one, read, limit, args) + ")");
        }
        args.add(limit);
        String sql = String.join(" UNION ALL ", parts) + (ascending ? " ORDER BY item_id ASC" : " ORDER BY item_id DESC") + " LIMIT ?";
        return jdbc.sql(sql).params(args).query((rs, n) -> new Row(rs.getLong(1), rs.getBoolean(2))).list();
    }

    /**
     * Each source's newest {@code count} pulled items as (item id, media bit), newest first: one
     * statement of primary-key reads.
     */
    Map<Long, List<long[]>> newest(List<Long> sourceIds, int count) {
        List<Object> args = new ArrayList<>(sourceIds.size() * 2);
        List<String> parts = new ArrayList<>(sourceIds.size());
        for (long sourceId : sourceIds) {
            parts.add("(SELECT source_id, item_id, media FROM pulled_items WHERE source_id = ? ORDER BY item_id DESC LIMIT ?)");
            args.add(sourceId);
            args.add(count);
        }
        Map<Long, List<long[]>> newest = new HashMap<>();
        jdbc.sql(String.join(" UNION ALL ", parts)).params(args).query(rs -> {
            newest.computeIfAbsent(rs.getLong(1), id -> new ArrayList<>()).add(new long[] {rs.getLong(2), rs.getInt(3)});
        });
        newest.values().forEach(rows -> rows.sort((a, b) -> Long.compare(b[0], a[0])));
        return newest;
    }

    /** A pulled item that may make a page; its source's read position decides its state unless it was marked. */
    private record Candidate(long itemId, long sourceId, long upto) {}

    /**
     * {@link #rowsOfAll} without a read filter, cheaper: the candidates come from the sources'
     * heads kept on this node ({@code heads}; descending reads they can answer) or else from the
     * primary key alone ({@code limit} a source), are cut to {@code limit}, and only those are
     * probed for marks and the inbox, as far as {@code probing} asks. Empty when an item held by the
     * inbox was among a full cut, which may have pushed a later candidate out: the caller then reads
     * with the probes inside each source's read.
     */
    Optional<List<Row>> candidatesFirst(long userId, List<Read> reads, int limit, boolean ascending, Map<Long, SourceHeads.Head> heads,
            Probing probing) {
        List<Candidate> all = new ArrayList<>();
        List<Read> rest = new ArrayList<>();
        for (Read one : reads) {
            SourceHeads.Head head = ascending ? null : heads.get(one.follow().sourceId());
            List<Long> served = head == null ? null : head.serve(one.bounds(), one.media(), limit);
            if (served == null) {
                rest.add(one);
            } else {
                served.forEach(id -> all.add(new Candidate(id, one.follow().sourceId(), one.follow().readUpto())));
            }
        }
        all.addAll(candidates(rest, limit, ascending));
        all.sort(ascending ? Comparator.comparingLong(Candidate::itemId) : Comparator.comparingLong(Candidate::itemId).reversed());
        List<Candidate> cut = all.subList(0, Math.min(limit, all.size()));
        if (cut.isEmpty()) {
            return Optional.of(List.of());
        }
        Probes probes = probing.known() != null ? new Probes(probing.known(), Set.of()) : probe(userId, cut, probing.inbox());
        if (!probes.held().isEmpty() && cut.size() >= limit) {
            return Optional.empty();
        }
        return Optional.of(cut.stream().filter(c -> !probes.held().contains(c.itemId()))
                .map(c -> new Row(c.itemId(), probes.marks().getOrDefault(c.itemId(), c.itemId() <= c.upto()))).toList());
    }

    /** Candidates from the primary key alone: {@code limit} a read, united and cut to {@code limit}. */
    private List<Candidate> candidates(List<Read> reads, int limit, boolean ascending) {
        if (reads.isEmpty()) {
            return List.of();
        }
        List<Object> args = new ArrayList<>();
        List<String> parts = new ArrayList<>(reads.size());
        String order = ascending ? " ORDER BY item_id ASC LIMIT ?" : " ORDER BY item_id DESC LIMIT ?";
        for (Read one : reads) {
            StringBuilder part = new StringBuilder("(SELECT item_id, source_id, ? AS upto FROM pulled_items WHERE source_id = ?"
                    + " AND item_id >= ? AND media IN (" + String.join(", ", java.util.Collections.nCopies(one.media().size(), "?")) + ")");
            args.addAll(List.of(one.follow().readUpto(), one.follow().sourceId(), one.bounds().lowest()));
            args.addAll(one.media());
            if (one.bounds().below() != null) {
                part.append(" AND item_id < ?");
                args.add(one.bounds().below());
            }
            if (one.bounds().above() != null) {
                part.append(" AND item_id > ?");
                args.add(one.bounds().above());
            }
            parts.add(part.append(order).append(')').toString());
            args.add(limit);
        }
        args.add(limit);
        return jdbc.sql(String.join(" UNION ALL ", parts) + order).params(args)
                .query((rs, n) -> new Candidate(rs.getLong(1), rs.getLong(2), rs.getLong(3))).list();
    }

    /**
     * What {@link #candidatesFirst} probes of its cut: the person's marks (unless {@code known},
     * the person's marks kept by the caller) and, with {@code inbox}, which items their inbox holds
     * (not needed where the caller's inbox part covers the candidates' bounds).
     */
    record Probing(@Nullable Map<Long, Boolean> known, boolean inbox) {
        static final Probing ALL = new Probing(null, true);
        static final Probing MARKS = new Probing(null, false);

        /** Nothing probed: the marks are these, and the inbox part covers the bounds. */
        static Probing none(Map<Long, Boolean> marks) {
            return new Probing(marks, false);
        }
    }

    /** The person's marks on these items, and which of them their inbox holds. */
    private record Probes(Map<Long, Boolean> marks, Set<Long> held) {}

    private Probes probe(long userId, List<Candidate> cut, boolean inbox) {
        String items = String.join(", ", java.util.Collections.nCopies(cut.size(), "?"));
        List<Long> sources = cut.stream().map(Candidate::sourceId).distinct().toList();
        List<Object> args = new ArrayList<>();
        args.add(userId);
        args.addAll(sources);
        cut.forEach(c -> args.add(c.itemId()));
        if (inbox) {
            args.add(userId);
            cut.forEach(c -> args.add(c.itemId()));
        }
        Map<Long, Boolean> marks = new HashMap<>();
        Set<Long> held = new HashSet<>();
        jdbc.sql("SELECT 0, item_id, is_read FROM pulled_marks WHERE user_id = ? AND source_id IN ("
                + String.join(", ", java.util.Collections.nCopies(sources.size(), "?")) + ") AND item_id IN (" + items + ")"
                + (inbox ? " UNION ALL SELECT 1, item_id, FALSE FROM inbox WHERE user_id = ? AND item_id IN (" + items + ")" : ""))
                .params(args).query(rs -> {
                    if (rs.getInt(1) == 0) {
                        marks.put(rs.getLong(2), rs.getBoolean(3));
                    } else {
                        held.add(rs.getLong(2));
                    }
                });
        return new Probes(marks, held);
    }

    /**
     * The {@code count}-th newest id among the person's newest {@code count} inbox entries and
     * each read's newest {@code count} pulled items (the merged window's floor): one statement of
     * index-only range reads, a distinct union (an item both in the inbox and pulled counts once).
     */
    Optional<Long> nthNewest(long userId, List<Read> reads, int count) {
        List<Object> args = new ArrayList<>(List.of(userId, count));
        StringBuilder sql = new StringBuilder("SELECT item_id FROM ((SELECT item_id FROM inbox WHERE user_id = ? ORDER BY item_id DESC LIMIT ?)");
        for (Read one : reads) {
            sql.append(" UNION (SELECT item_id FROM pulled_items WHERE source_id = ? AND item_id >= ? AND media IN (")
                    .append(String.join(", ", java.util.Collections.nCopies(one.media().size(), "?")))
                    .append(") ORDER BY item_id DESC LIMIT ?)");
            args.add(one.follow().sourceId());
            args.add(one.bounds().lowest());
            args.addAll(one.media());
            args.add(count);
        }
        sql.append(") u ORDER BY item_id DESC LIMIT 1 OFFSET ?");
        args.add(count - 1);
        return jdbc.sql(sql.toString()).params(args).query((rs, n) -> rs.getLong(1)).optional();
    }

    private static String oneRead(long userId, Read one, @Nullable Boolean read, int limit, List<Object> args) {
        String state = "COALESCE(m.is_read, p.item_id <= ?)";
        StringBuilder sql = new StringBuilder("SELECT p.item_id, " + state + " AS is_read FROM pulled_items p"
                + " LEFT JOIN pulled_marks m ON m.user_id = ? AND m.source_id = p.source_id AND m.item_id = p.item_id"
                + " WHERE p.source_id = ? AND p.item_id >= ? AND p.media IN ("
                + String.join(", ", java.util.Collections.nCopies(one.media().size(), "?")) + ")"
                + " AND NOT EXISTS (SELECT 1 FROM inbox i WHERE i.user_id = ? AND i.item_id = p.item_id)");
        args.addAll(List.of(one.follow().readUpto(), userId, one.follow().sourceId(), one.bounds().lowest()));
        args.addAll(one.media());
        args.add(userId);
        if (one.bounds().below() != null) {
            sql.append(" AND p.item_id < ?");
            args.add(one.bounds().below());
        }
        if (one.bounds().above() != null) {
            sql.append(" AND p.item_id > ?");
            args.add(one.bounds().above());
        }
        if (read != null) {
            sql.append(" AND ").append(state).append(" = ?");
            args.add(one.follow().readUpto());
            args.add(read);
        }
        sql.append(one.bounds().ascending() ? " ORDER BY p.item_id ASC LIMIT ?" : " ORDER BY p.item_id DESC LIMIT ?");
        args.add(limit);
        return sql.toString();
    }

    /**
     * The person's unread pulled items by source and media, over every source they follow that
     * has pulled items, items at least {@code keepFloor}, counted over every item: one statement.
     */
    List<UnreadGroup> unread(long userId, long keepFloor) {
        return unread(List.of(userId), List.of(), List.of(), keepFloor).groups().getOrDefault(userId, List.of());
    }

    /** Where a count of a pulled source stands: items numbered up to {@code seq} read, {@code removed} removals made. */
    record SourceMark(long seq, long removed) {}

    /** These people's counts of one source, to bring up to date: its items numbered above {@code after}. */
    record Since(long sourceId, long after, List<Long> people) {}

    /** Unread groups by person, and where each source asked about stands, read in the same snapshot. */
    record Recount(Map<Long, List<UnreadGroup>> groups, Map<Long, SourceMark> marks) {}

    /**
     * In one statement (one snapshot): the unread groups of {@code fully}, counted over every item
     * as {@link #unread(long, long)} counts them; those of each {@link Since}'s people among their source's items numbered
     * above its {@code after} (a range of the source's sequence, not its whole horizon); and where
     * each of {@code sourceIds} stands.
     */
    Recount unread(Collection<Long> fully, List<Since> since, Collection<Long> sourceIds, long keepFloor) {
        List<String> parts = new ArrayList<>();
        Map<String, Object> params = new HashMap<>();
        params.put("keep", keepFloor);
        if (!fully.isEmpty()) {
            parts.add("SELECT 0, s.user_id, p.source_id, p.media, COUNT(*), MIN(p.item_id) " + FOLLOWS
                    + "JOIN pulled_items p ON p.source_id = s.source_id AND " + AS_ENTRY + "\n" + MARKS
                    + "WHERE s.user_id IN (:fully) AND " + IS_READ + " = FALSE\n" + NOT_ELSEWHERE
                    + "GROUP BY s.user_id, p.source_id, p.media");
            params.put("fully", List.copyOf(fully));
        }
        for (int i = 0; i < since.size(); i++) {
            parts.add("SELECT 0, s.user_id, p.source_id, p.media, COUNT(*), MIN(p.item_id) FROM pulled_items p\n"
                    + "JOIN subscriptions s ON s.source_id = p.source_id AND s.user_id IN (:u" + i + ")\n"
                    + "LEFT JOIN pulled_reads r ON r.user_id = s.user_id AND r.source_id = s.source_id\n" + MARKS
                    + "WHERE p.source_id = :s" + i + " AND p.seq > :a" + i + " AND " + AS_ENTRY + " AND " + IS_READ + " = FALSE\n"
                    + NOT_ELSEWHERE + "GROUP BY s.user_id, p.source_id, p.media");
            params.put("u" + i, since.get(i).people());
            params.put("s" + i, since.get(i).sourceId());
            params.put("a" + i, since.get(i).after());
        }
        if (!sourceIds.isEmpty()) {
            parts.add("SELECT 1, 0, a.source_id, 0, a.pulled_seq, COALESCE(rm.removed, 0) FROM source_audiences a\n"
                    + "LEFT JOIN pulled_removals rm ON rm.source_id = a.source_id WHERE a.source_id IN (:sources)");
            params.put("sources", List.copyOf(sourceIds));
        }
        Map<Long, List<UnreadGroup>> groups = new HashMap<>();
        Map<Long, SourceMark> marks = new HashMap<>();
        if (parts.isEmpty()) {
            return new Recount(groups, marks);
        }
        jdbc.sql("(" + String.join(")\nUNION ALL\n(", parts) + ")").params(params).query(rs -> {
            if (rs.getInt(1) == 1) {
                marks.put(rs.getLong(3), new SourceMark(rs.getLong(5), rs.getLong(6)));
            } else {
                groups.computeIfAbsent(rs.getLong(2), user -> new ArrayList<>())
                        .add(new UnreadGroup(rs.getLong(3), MediaType.ofBit(rs.getInt(4)), rs.getLong(5), rs.getLong(6)));
            }
        });
        return new Recount(groups, marks);
    }

    /**
     * Of these items (of {@code sourceIds}), each of these people's pulled entries and whether each
     * is read, by person then item: the rows {@link #rows} would give each of them for their follow
     * of the item's source (their start, their media filter, not in their inbox), in one statement.
     */
    Map<Long, Map<Long, Boolean>> readStates(Collection<Long> people, Collection<Long> sourceIds, Collection<Long> itemIds,
            long keepFloor) {
        Map<Long, Map<Long, Boolean>> states = new HashMap<>();
        if (people.isEmpty() || sourceIds.isEmpty() || itemIds.isEmpty()) {
            return states;
        }
        jdbc.sql("SELECT s.user_id, p.item_id, " + IS_READ + " " + FOLLOWS
                + "JOIN pulled_items p ON p.source_id = s.source_id AND p.item_id IN (:items) AND " + AS_ENTRY + "\n" + MARKS
                + "WHERE s.user_id IN (:users) AND s.source_id IN (:sources)\n" + NOT_ELSEWHERE)
                .param("users", List.copyOf(people)).param("sources", List.copyOf(sourceIds)).param("items", List.copyOf(itemIds)).param("keep", keepFloor)
                .query((rs, n) -> states.computeIfAbsent(rs.getLong(1), user -> new HashMap<>()).put(rs.getLong(2), rs.getBoolean(3)))
                .list();
        return states;
    }

    /** How many pulled entries the person has (read or not), items at least {@code keepFloor}: one statement. */
    long count(long userId, long keepFloor) {
        return jdbc.sql("SELECT COUNT(*) " + FOLLOWS + "JOIN pulled_items p ON p.source_id = s.source_id AND " + AS_ENTRY + "\n"
                + "WHERE s.user_id = :user\n" + NOT_ELSEWHERE).param("user", userId).param("keep", keepFloor).query(Long.class).single();
    }

    /**
     * Locks the person's follow of the source for a change of read state: their subscription
     * (shared, so it cannot end meanwhile) and their read position (created at 0, 0 if absent).
     */
    Optional<PulledFollow> lockFollow(long userId, long sourceId) {
        Optional<Integer> mask = jdbc.sql("SELECT media_mask FROM subscriptions WHERE user_id = ? AND source_id = ? LOCK IN SHARE MODE")
                .params(userId, sourceId).query(Integer.class).optional();
        if (mask.isEmpty()) {
            return Optional.empty();
        }
        jdbc.sql("INSERT IGNORE INTO pulled_reads (user_id, source_id, from_id, read_upto) VALUES (?, ?, 0, 0)")
                .params(userId, sourceId).update();
        return jdbc.sql("SELECT from_id, read_upto FROM pulled_reads WHERE user_id = ? AND source_id = ? FOR UPDATE")
                .params(userId, sourceId)
                .query((rs, n) -> new PulledFollow(sourceId, mask.get(), rs.getLong(1), rs.getLong(2)))
                .optional();
    }

    /** The pulled item's media, its row shared-locked (a tombstone cannot remove it meanwhile); empty if not pulled. */
    Optional<MediaType> lockedItem(long sourceId, long itemId) {
        return jdbc.sql("SELECT media FROM pulled_items WHERE source_id = ? AND item_id = ? LOCK IN SHARE MODE")
                .params(sourceId, itemId).query((rs, n) -> MediaType.ofBit(rs.getInt(1))).optional();
    }

    /** The person's marks on single pulled items by item, or null if there are more than {@code max}. */
    @Nullable Map<Long, Boolean> marks(long userId, int max) {
        Map<Long, Boolean> marks = new HashMap<>();
        jdbc.sql("SELECT item_id, is_read FROM pulled_marks WHERE user_id = ? LIMIT ?").params(userId, max + 1)
                .query(rs -> {
                    marks.put(rs.getLong(1), rs.getBoolean(2));
                });
        return marks.size() > max ? null : Map.copyOf(marks);
    }

    Optional<Boolean> mark(long userId, long sourceId, long itemId) {
        return jdbc.sql("SELECT is_read FROM pulled_marks WHERE user_id = ? AND source_id = ? AND item_id = ?")
                .params(userId, sourceId, itemId).query(Boolean.class).optional();
    }

    void putMark(long userId, long sourceId, long itemId, boolean read) {
        jdbc.sql("""
                INSERT INTO pulled_marks (user_id, source_id, item_id, is_read) VALUES (?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE is_read = VALUES(is_read)
                """).params(userId, sourceId, itemId, read).update();
    }

    void deleteMark(long userId, long sourceId, long itemId) {
        jdbc.sql("DELETE FROM pulled_marks WHERE user_id = ? AND source_id = ? AND item_id = ?")
                .params(userId, sourceId, itemId).update();
    }

    /** The person's unread pulled items of a (locked) follow from {@code lowest} up to and including {@code upTo}. */
    long unreadUpTo(long userId, PulledFollow follow, long lowest, long upTo) {
        return jdbc.sql("SELECT COUNT(*) FROM pulled_items p"
                        + " LEFT JOIN pulled_marks m ON m.user_id = :user AND m.source_id = p.source_id AND m.item_id = p.item_id"
                        + " WHERE p.source_id = :source AND p.item_id >= :lowest AND p.item_id <= :target"
                        + " AND (p.media & :mask) <> 0 AND " + READ + " = FALSE AND " + NOT_IN_INBOX)
                .param("user", userId).param("source", follow.sourceId()).param("lowest", lowest).param("target", upTo)
                .param("mask", follow.mask()).param("upto", follow.readUpto())
                .query(Long.class).single();
    }

    /** The item ids {@link #unreadUpTo} counts. */
    List<Long> unreadIdsUpTo(long userId, PulledFollow follow, long lowest, long upTo) {
        return jdbc.sql("SELECT p.item_id FROM pulled_items p"
                        + " LEFT JOIN pulled_marks m ON m.user_id = :user AND m.source_id = p.source_id AND m.item_id = p.item_id"
                        + " WHERE p.source_id = :source AND p.item_id >= :lowest AND p.item_id <= :target"
                        + " AND (p.media & :mask) <> 0 AND " + READ + " = FALSE AND " + NOT_IN_INBOX)
                .param("user", userId).param("source", follow.sourceId()).param("lowest", lowest).param("target", upTo)
                .param("mask", follow.mask()).param("upto", follow.readUpto())
                .query(Long.class).list();
    }

    /** Everything up to {@code upTo} becomes read: the position rises to it and the exceptions below it go. */
    void readUpTo(long userId, long sourceId, long upTo) {
        jdbc.sql("UPDATE pulled_reads SET read_upto = GREATEST(read_upto, ?) WHERE user_id = ? AND source_id = ?")
                .params(upTo, userId, sourceId).update();
        jdbc.sql("DELETE FROM pulled_marks WHERE user_id = ? AND source_id = ? AND item_id <= ?")
                .params(userId, sourceId, upTo).update();
    }
}
