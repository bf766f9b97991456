package dev.tributary.pubsub;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Search over the items in a person's reach: the items of the sources they subscribe to (as far
 * back as the source goes), their inbox (posts and groups they received, history of sources they
 * left) and their starred items; then {@link VisibleItems}' rule, so a group's items stay its
 * members'. Every term must match; hits rank by the matched terms' weights (a title occurrence
 * outweighs a summary one), then newest first, and page by a {@link SearchCursor} on that order.
 *
 * <p>The terms live in the {@code item_terms} index (PubsubKinds.ITEM_TERMS), which storage keeps
 * in each item's transaction. One query: the rarest term's rows in the person's reach (its rows
 * source by source for their subscriptions; their inbox rows from other sources and their stars,
 * probed), each other term a primary-key probe, ordered and cut in SQL. Rarity is read first
 * (each term's rows counted up to {@value #RARITY_PROBE}), so the cheapest term drives.
 */
@Service
public class ItemSearch {

    /** Rows counted per term to tell which is rarest: past this, a term is just "common". */
    static final int RARITY_PROBE = 5_000;

    private final JdbcClient jdbc;
    private final Items items;
    private final VisibleItems visible;

    ItemSearch(JdbcClient jdbc, Items items, VisibleItems visible) {
        this.jdbc = jdbc;
        this.items = items;
        this.visible = visible;
    }

    /** A page of the person's hits for {@code query}, best first. */
    public SearchPage search(long userId, SearchQuery query) {
        if (query.sourceIds() != null && query.sourceIds().isEmpty()) {
            return new SearchPage(List.of(), null);
        }
        List<String> terms = rarestFirst(query.text().terms());
        List<Object> args = new ArrayList<>();
        String sql = sql(userId, query, terms, args);
        Map<Long, Long> scores = new LinkedHashMap<>();
        jdbc.sql(sql).params(args).query(rs -> {
            scores.put(rs.getLong("item_id"), rs.getLong("score"));
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
        return new SearchPage(hits, next);
    }

    /** The terms, fewest rows first (longer first among equals): the first drives the query. */
    private List<String> rarestFirst(List<String> terms) {
        if (terms.size() == 1) {
            return terms;
        }
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
        return terms.stream()
                .sorted(Comparator.<String>comparingLong(t -> rows.getOrDefault(t, 0L))
                        .thenComparing(Comparator.comparingInt(String::length).reversed()))
                .toList();
    }

    private static String sql(long userId, SearchQuery query, List<String> terms, List<Object> args) {
        StringBuilder sql = new StringBuilder();
        String score = java.util.stream.IntStream.range(0, terms.size()).mapToObj(i -> "t" + i + ".weight")
                .collect(Collectors.joining(" + ", "(", ")"));
        sql.append("SELECT STRAIGHT_JOIN r.item_id, ").append(score).append(" AS score FROM (");
        // The reach: subscribed sources' rows of the driving term, read source by source ...
        sql.append("SELECT t.source_id, t.item_id FROM subscriptions s JOIN item_terms t ON t.term = ? AND t.source_id = s.source_id"
                + " WHERE s.user_id = ?");
        args.add(terms.getFirst());
        args.add(userId);
        sourceFilter(sql, "s.source_id", query.sourceIds(), args);
        // ... the inbox's entries from sources not subscribed (relays, groups, history) ...
        sql.append(" UNION SELECT i.source_id, i.item_id FROM inbox i WHERE i.user_id = ?"
                + " AND i.source_id NOT IN (SELECT source_id FROM subscriptions WHERE user_id = ?)");
        args.add(userId);
        args.add(userId);
        sourceFilter(sql, "i.source_id", query.sourceIds(), args);
        // ... and the stars (their sources through item_sources, which holds live items only).
        sql.append(" UNION SELECT x.source_id, st.item_id FROM stars st JOIN item_sources x ON x.entity_id = st.item_id"
                + " WHERE st.user_id = ?");
        args.add(userId);
        sourceFilter(sql, "x.source_id", query.sourceIds(), args);
        sql.append(") r");
        for (int i = 0; i < terms.size(); i++) {
            sql.append(" JOIN item_terms t").append(i).append(" ON t").append(i).append(".term = ? AND t").append(i)
                    .append(".source_id = r.source_id AND t").append(i).append(".item_id = r.item_id");
            args.add(terms.get(i));
        }
        if (query.media() != null) {
            sql.append(" JOIN item_terms tm ON tm.term IN (").append(placeholders(query.media().size()))
                    .append(") AND tm.source_id = r.source_id AND tm.item_id = r.item_id");
            query.media().stream().map(SearchTerms::mediaTerm).sorted().forEach(args::add);
        }
        if (query.tag() != null) {
            sql.append(" JOIN item_terms tg ON tg.term = ? AND tg.source_id = r.source_id AND tg.item_id = r.item_id");
            args.add(SearchTerms.tagTerm(query.tag()));
        }
        if (query.unread()) {
            sql.append(" JOIN inbox u ON u.user_id = ? AND u.item_id = r.item_id AND u.is_read = FALSE");
            args.add(userId);
        }
        if (query.after() != null) {
            sql.append(" WHERE (").append(score).append(" < ? OR (").append(score).append(" = ? AND r.item_id < ?))");
            args.add(query.after().score());
            args.add(query.after().score());
            args.add(query.after().itemId());
        }
        sql.append(" ORDER BY score DESC, r.item_id DESC LIMIT ?");
        args.add(query.limit() + 1);
        return sql.toString();
    }

    private static void sourceFilter(StringBuilder sql, String column, Collection<Long> sourceIds, List<Object> args) {
        if (sourceIds != null) {
            sql.append(" AND ").append(column).append(" IN (").append(placeholders(sourceIds.size())).append(')');
            sourceIds.stream().sorted().forEach(args::add);
        }
    }

    private static String placeholders(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }
}
