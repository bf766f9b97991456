package dev.tributary.pubsub;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Search over the items in a person's reach: the items of the sources they subscribe to (as far
 * back as the source goes), their inbox (posts and groups they received, history of sources they
 * left) and their starred items; then {@link VisibleItems}' rule, so a group's items stay its
 * members'. Every term must match; hits rank by the matched terms' weights (a title occurrence
 * outweighs a summary one), then newest first, and page by a {@link SearchCursor} on that order.
 *
 * <p>The terms live in the {@code item_terms} index (PubsubKinds.ITEM_TERMS), which storage writes
 * just after each item's transaction (a deferred index: search lags a publish by a moment).
 * Reads: the person's subscribed sources (keyed by person, as every per-person table), each term's rarity (rows counted up to {@value #RARITY_PROBE}), then one query
 * driven by the rarest term: its rows newest first in the subscribed sources (each with its
 * subscription's media filter, as the timeline received them), up to {@value #CANDIDATES} that hold
 * every other term (one primary-key probe each) and no further than its newest
 * {@link SearchSettings#maxRowsWalked()} rows (a search cut there says so), together with the
 * person's inbox rows from other sources and their stars; grouped by story (the {@code item_stories}
 * index), so a post that several feeds carry is one hit; ranked and cut in SQL.
 */
@Service
public class ItemSearch {

    /** Rows counted per term to tell which is rarest: past this, a term is just "common". */
    static final int RARITY_PROBE = 5_000;
    /**
     * Most matches of the subscriptions' branch that are ranked: the newest so many. A common word
     * over a million items would otherwise rank every one of its rows; relevance is then judged
     * among the newest matches (all of them for a rarer query).
     */
    static final int CANDIDATES = 2_000;

    private final JdbcClient jdbc;
    private final Items items;
    private final VisibleItems visible;
    private final SearchSettings settings;

    ItemSearch(JdbcClient jdbc, Items items, VisibleItems visible, SearchSettings settings) {
        this.jdbc = jdbc;
        this.items = items;
        this.visible = visible;
        this.settings = settings;
    }

    /** A page of the person's hits for {@code query}, best first. */
    public SearchPage search(long userId, SearchQuery query) {
        if (query.sourceIds() != null && query.sourceIds().isEmpty()) {
            return new SearchPage(List.of(), null, false);
        }
        Map<String, Long> rows = query.text().terms().size() == 1 ? Map.of() : termRows(query.text().terms());
        List<String> terms = rarestFirst(query.text().terms(), rows);
        Map<Long, Integer> subscribed = new LinkedHashMap<>();
        jdbc.sql("SELECT source_id, media_mask FROM subscriptions WHERE user_id = ? ORDER BY source_id")
                .param(userId).query(rs -> {
                    subscribed.put(rs.getLong("source_id"), rs.getInt("media_mask"));
                });
        Map<Integer, List<Long>> reach = reachByMask(query, subscribed);
        Long floor = reach.isEmpty() ? null : walkFloor(terms.getFirst(), rows);
        List<Object> args = new ArrayList<>();
        String sql = sql(userId, query, terms, subscribed.keySet(), reach, floor, args);
        Map<Long, Long> scores = new LinkedHashMap<>();
        jdbc.sql(sql).params(args).query(rs -> {
            scores.putIfAbsent(rs.getLong("item_id"), rs.getLong("score"));
        });
        SearchCursor next = null;
        List<Long> ids = new ArrayList<>(scores.keySet());
        if (ids.size() > query.limit()) {
            ids = ids.subList(0, query.limit());
            long last = ids.getLast();
            next = new SearchCursor(scores.get(last), last);
        }
        List<Stored<Item>> found = visible.among(userId, items.getAll(ids));
        List<SearchHit> hits = found.stream()
                .filter(item -> query.tag() == null || item.body().tags().stream().anyMatch(query.tag()::equalsIgnoreCase))
                .map(item -> new SearchHit(item, scores.get(item.id())))
                .toList();
        return new SearchPage(hits, next, floor != null);
    }

    /** Each term's index rows, counted up to {@value #RARITY_PROBE}. */
    private Map<String, Long> termRows(List<String> terms) {
        String counts = terms.stream()
                .map(t -> "SELECT ? AS term, COUNT(*) AS n FROM (SELECT 1 FROM item_terms WHERE term = ? LIMIT "
                        + RARITY_PROBE + ") x")
                .collect(Collectors.joining(" UNION ALL "));
        List<Object> args = new ArrayList<>();
        terms.forEach(t -> {
            args.add(t);
            args.add(t);
        });
        Map<String, Long> rows = new HashMap<>();
        jdbc.sql(counts).params(args).query(rs -> {
            rows.put(rs.getString("term"), rs.getLong("n"));
        });
        return rows;
    }

    /** The terms, fewest rows first (longer first among equals): the first drives the query. */
    private static List<String> rarestFirst(List<String> terms, Map<String, Long> rows) {
        if (terms.size() == 1) {
            return terms;
        }
        return terms.stream()
                .sorted(Comparator.<String>comparingLong(t -> rows.getOrDefault(t, 0L))
                        .thenComparing(Comparator.comparingInt(String::length).reversed()))
                .toList();
    }

    /**
     * The subscribed sources in the query's reach, by the media types they let through: the
     * subscription's media filter (what the timeline received) and the query's, both. A source
     * whose filter and the query's share no type is out of reach.
     */
    private static Map<Integer, List<Long>> reachByMask(SearchQuery query, Map<Long, Integer> subscribed) {
        int wanted = query.media() == null ? MediaType.ALL : MediaType.maskOf(query.media());
        Map<Integer, List<Long>> reach = new TreeMap<>();
        subscribed.forEach((source, mask) -> {
            int let = mask & wanted;
            if (let != 0 && (query.sourceIds() == null || query.sourceIds().contains(source))) {
                reach.computeIfAbsent(let, m -> new ArrayList<>()).add(source);
            }
        });
        return reach;
    }

    /**
     * The item id past which the driving term's walk stops: that of its row just beyond the newest
     * {@link SearchSettings#maxRowsWalked()}, or null when it has no more rows than those (the
     * rarity count, when taken, usually tells without reading further).
     */
    private @Nullable Long walkFloor(String term, Map<String, Long> rows) {
        Long counted = rows.get(term);
        if (counted != null && counted < RARITY_PROBE && counted <= settings.maxRowsWalked()) {
            return null;
        }
        return jdbc.sql("SELECT item_id FROM item_terms WHERE term = ? ORDER BY item_id DESC LIMIT 1 OFFSET ?")
                .params(term, settings.maxRowsWalked()).query(Long.class).optional().orElse(null);
    }

    /**
     * Two branches, each matching every term: (1) the driving term's rows newest first, above the
     * walk's floor, kept to the subscribed sources in reach (each with the media types its filter
     * lets through), at most {@value #CANDIDATES}; (2) their inbox rows from other sources and their
     * stars, probed. Then ranked, cut after the cursor, one more than the page.
     */
    private static String sql(long userId, SearchQuery query, List<String> terms, Set<Long> subscribed,
            Map<Integer, List<Long>> reach, @Nullable Long floor, List<Object> args) {
        String score = IntStream.range(0, terms.size()).mapToObj(i -> "t" + i + ".weight")
                .collect(Collectors.joining(" + ", "(", ")"));
        StringBuilder sql = new StringBuilder("SELECT g.item_id, g.score FROM (SELECT ")
                .append(query.sourceIds() == null
                        ? "COALESCE(MAX(e.item_id), MAX(a.lead_item_id), MAX(r.item_id))"
                        : "COALESCE(MAX(e.item_id), MAX(r.item_id))")
                .append(" AS item_id, MAX(r.score) AS score FROM (");
        if (!reach.isEmpty()) {
            sql.append("(SELECT STRAIGHT_JOIN t0.item_id, ").append(score).append(" AS score FROM item_terms t0");
            probes(sql, query, terms, args);
            sql.append(" WHERE t0.term = ?");
            args.add(terms.getFirst());
            if (floor != null) {
                sql.append(" AND t0.item_id > ?");
                args.add(floor);
            }
            sql.append(" AND (");
            String or = "";
            for (Map.Entry<Integer, List<Long>> let : reach.entrySet()) {
                sql.append(or).append("(t0.source_id IN (").append(placeholders(let.getValue().size())).append(')');
                args.addAll(let.getValue());
                if (let.getKey() != MediaType.ALL) {
                    List<String> media = MediaType.ofMask(let.getKey()).stream().map(SearchTerms::mediaTerm).sorted().toList();
                    sql.append(" AND EXISTS (SELECT 1 FROM item_terms tm WHERE tm.term IN (").append(placeholders(media.size()))
                            .append(") AND tm.item_id = t0.item_id AND tm.source_id = t0.source_id)");
                    args.addAll(media);
                }
                sql.append(')');
                or = " OR ";
            }
            sql.append(") ORDER BY t0.item_id DESC LIMIT ").append(CANDIDATES).append(") UNION ");
        }
        // The inbox's entries from sources not subscribed (relays, groups left, history) and the stars
        // (their sources through item_sources, which holds live items only).
        sql.append("(SELECT STRAIGHT_JOIN t0.item_id, ").append(score).append(" AS score FROM (")
                .append("SELECT i.item_id, i.source_id FROM inbox i WHERE i.user_id = ?");
        args.add(userId);
        if (!subscribed.isEmpty()) {
            sql.append(" AND i.source_id NOT IN (").append(placeholders(subscribed.size())).append(')');
            args.addAll(subscribed);
        }
        sql.append(" UNION SELECT st.item_id, x.source_id FROM stars st JOIN item_sources x ON x.entity_id = st.item_id"
                + " WHERE st.user_id = ?) o JOIN item_terms t0 ON t0.term = ? AND t0.item_id = o.item_id AND t0.source_id = o.source_id");
        args.add(userId);
        args.add(terms.getFirst());
        probes(sql, query, terms, args);
        if (query.media() != null) {
            sql.append(" JOIN item_terms tm ON tm.term IN (").append(placeholders(query.media().size()))
                    .append(") AND tm.item_id = t0.item_id AND tm.source_id = t0.source_id");
            query.media().stream().map(SearchTerms::mediaTerm).sorted().forEach(args::add);
        }
        if (query.sourceIds() != null) {
            sql.append(" WHERE t0.source_id IN (").append(placeholders(query.sourceIds().size())).append(')');
            query.sourceIds().stream().sorted().forEach(args::add);
        }
        // One hit a story (issue 45): the copies of one story in several sources are one group, shown
        // as the person's entry of it where they hold one (the timeline's, which names also_in), and
        // where a copy reached them after that entry, as the entry even if only the copy matched;
        // within a source filter, as one of the filter's own items. Items without a story are their own group.
        sql.append(")) r LEFT JOIN item_stories s ON s.entity_id = r.item_id"
                + " LEFT JOIN inbox e ON e.user_id = ? AND e.item_id = r.item_id"
                + " LEFT JOIN inbox_also a ON a.user_id = ? AND a.item_id = r.item_id"
                + " GROUP BY s.story IS NULL, COALESCE(s.story, r.item_id)) g");
        args.add(userId);
        args.add(userId);
        if (query.unread()) {
            sql.append(" JOIN inbox u ON u.user_id = ? AND u.item_id = g.item_id AND u.is_read = FALSE");
            args.add(userId);
        }
        if (query.after() != null) {
            sql.append(" WHERE g.score < ? OR (g.score = ? AND g.item_id < ?)");
            args.add(query.after().score());
            args.add(query.after().score());
            args.add(query.after().itemId());
        }
        sql.append(" ORDER BY g.score DESC, g.item_id DESC LIMIT ?");
        args.add(query.limit() + 1);
        return sql.toString();
    }

    /** Each further term and the tag filter: one primary-key probe each on (term, item, source). */
    private static void probes(StringBuilder sql, SearchQuery query, List<String> terms, List<Object> args) {
        for (int i = 1; i < terms.size(); i++) {
            sql.append(" JOIN item_terms t").append(i).append(" ON t").append(i).append(".term = ? AND t").append(i)
                    .append(".item_id = t0.item_id AND t").append(i).append(".source_id = t0.source_id");
            args.add(terms.get(i));
        }
        if (query.tag() != null) {
            sql.append(" JOIN item_terms tg ON tg.term = ? AND tg.item_id = t0.item_id AND tg.source_id = t0.source_id");
            args.add(SearchTerms.tagTerm(query.tag()));
        }
    }

    private static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }
}
