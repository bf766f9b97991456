package dev.tributary.pubsub;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 *
 * <p>A prefix ({@code aggregat*}) stands for the indexed terms that start with it (one index seek
 * each, at most {@link SearchText#MAX_PREFIX_TERMS}, else the query is refused) and for the stems
 * of the words it starts (the index holds stems: {@code aggregat*} finds "aggregator", held as
 * {@code aggreg}); any of them matches. A query of prefixes only is driven by one of them, its
 * terms' walks sharing the cap on rows. A phrase's words are terms like any other; the ranked
 * candidates are then read and kept only where the phrase's terms stand together in the title or
 * the summary, at most {@value #PHRASE_CHECKS} candidates a page.
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
    /** Ranked candidates a phrase query reads at a time to check their text. */
    static final int PHRASE_BATCH = 100;
    /**
     * Most candidates one page of a phrase query checks (each one's title and summary re-analysed):
     * past them the page ends, shorter than asked, with a cursor to go on from.
     */
    static final int PHRASE_CHECKS = 400;
    /** Endings whose stems a prefix also stands for: the index keeps "aggregator" as {@code aggreg}. */
    private static final List<String> ENDINGS = List.of("e", "s", "es", "ed", "ing", "er", "ers", "ion", "ions",
            "ation", "ate", "ated", "ly", "y", "ies", "ity", "al", "ment", "ness", "ive");

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

    /**
     * A page of the person's hits for {@code query}, best first.
     *
     * @throws InvalidSearchException if a prefix stands for more than {@link SearchText#MAX_PREFIX_TERMS} indexed terms
     */
    public SearchPage search(long userId, SearchQuery query) {
        if (query.sourceIds() != null && query.sourceIds().isEmpty()) {
            return new SearchPage(List.of(), null, false);
        }
        SearchText text = query.text();
        List<List<String>> prefixed = new ArrayList<>();
        for (String prefix : text.prefixes()) {
            List<String> terms = expand(prefix);
            if (terms.isEmpty()) {
                // No indexed word starts with it: nothing can hold every part of the query.
                return new SearchPage(List.of(), null, false);
            }
            prefixed.add(terms);
        }
        Map<String, Long> rows = text.terms().size() <= 1 ? Map.of() : termRows(text.terms());
        List<List<String>> groups = new ArrayList<>();
        rarestFirst(text.terms(), rows).forEach(term -> groups.add(List.of(term)));
        prefixed.stream().sorted(Comparator.comparingInt(List::size)).forEach(groups::add);
        Map<Long, Integer> subscribed = new LinkedHashMap<>();
        jdbc.sql("SELECT source_id, media_mask FROM subscriptions WHERE user_id = ? ORDER BY source_id")
                .param(userId).query(rs -> {
                    subscribed.put(rs.getLong("source_id"), rs.getInt("media_mask"));
                });
        Map<Integer, List<Long>> reach = reachByMask(query, subscribed);
        Long floor = reach.isEmpty() ? null : walkFloor(groups.getFirst(), rows);
        Plan plan = new Plan(userId, query, groups, subscribed.keySet(), reach, floor);
        return text.phrases().isEmpty() ? page(plan) : phrasePage(plan);
    }

    /** What one search reads: its term groups (rarest first; a prefix's terms are one group), the reach, the walk's floor. */
    private record Plan(long userId, SearchQuery query, List<List<String>> groups, Set<Long> subscribed,
            Map<Integer, List<Long>> reach, @Nullable Long floor) {
    }

    private SearchPage page(Plan plan) {
        SearchQuery query = plan.query();
        Map<Long, Long> scores = ranked(plan, query.after(), query.limit() + 1);
        SearchCursor next = null;
        List<Long> ids = new ArrayList<>(scores.keySet());
        if (ids.size() > query.limit()) {
            ids = ids.subList(0, query.limit());
            long last = ids.getLast();
            next = new SearchCursor(scores.get(last), last);
        }
        List<Stored<Item>> found = visible.among(plan.userId(), items.getAll(ids));
        List<SearchHit> hits = found.stream()
                .filter(item -> tagged(item, query))
                .map(item -> new SearchHit(item, scores.get(item.id())))
                .toList();
        return new SearchPage(hits, next, plan.floor() != null);
    }

    /**
     * A page of a phrase query: the ranked candidates a batch at a time, each kept where its title or
     * summary holds every phrase, until the page is full, the candidates end or {@value #PHRASE_CHECKS}
     * were checked (then the page ends early and its cursor goes on after the last one checked).
     */
    private SearchPage phrasePage(Plan plan) {
        SearchQuery query = plan.query();
        List<SearchHit> hits = new ArrayList<>();
        SearchCursor after = query.after();
        int checked = 0;
        while (true) {
            Map<Long, Long> scores = ranked(plan, after, PHRASE_BATCH);
            Map<Long, Stored<Item>> found = new HashMap<>();
            visible.among(plan.userId(), items.getAll(scores.keySet())).forEach(item -> found.put(item.id(), item));
            for (Map.Entry<Long, Long> candidate : scores.entrySet()) {
                checked++;
                after = new SearchCursor(candidate.getValue(), candidate.getKey());
                Stored<Item> item = found.get(candidate.getKey());
                if (item == null || !tagged(item, query) || !PhraseMatch.holdsAll(item.body(), query.text().phrases())) {
                    continue;
                }
                if (hits.size() == query.limit()) {
                    SearchHit last = hits.getLast();
                    return new SearchPage(hits, new SearchCursor(last.score(), last.item().id()), plan.floor() != null);
                }
                hits.add(new SearchHit(item, candidate.getValue()));
            }
            if (scores.size() < PHRASE_BATCH) {
                return new SearchPage(hits, null, plan.floor() != null);
            }
            if (checked >= PHRASE_CHECKS) {
                return new SearchPage(hits, after, plan.floor() != null);
            }
        }
    }

    private static boolean tagged(Stored<Item> item, SearchQuery query) {
        return query.tag() == null || item.body().tags().stream().anyMatch(query.tag()::equalsIgnoreCase);
    }

    /** Item ids and scores, best first, after {@code after}, at most {@code limit}. */
    private Map<Long, Long> ranked(Plan plan, @Nullable SearchCursor after, int limit) {
        List<Object> args = new ArrayList<>();
        String sql = sql(plan, after, limit, args);
        Map<Long, Long> scores = new LinkedHashMap<>();
        jdbc.sql(sql).params(args).query(rs -> {
            scores.putIfAbsent(rs.getLong("item_id"), rs.getLong("score"));
        });
        return scores;
    }

    /**
     * The indexed terms a prefix stands for: those starting with it (read by a loose scan of the
     * index's first column) and, for an English-looking prefix, the stems of the words it starts
     * that it does not itself start ("runn" stands for {@code run} too).
     *
     * @throws InvalidSearchException when more than {@link SearchText#MAX_PREFIX_TERMS} terms start with it
     */
    private List<String> expand(String prefix) {
        // One seek per distinct term (the key's first column), past the previous one: a DISTINCT over the
        // range would read every row of every term (210,000 rows for a common prefix in a test).
        List<String> terms = new ArrayList<>();
        String last = "";
        while (terms.size() <= SearchText.MAX_PREFIX_TERMS) {
            Optional<String> next = jdbc.sql("SELECT term FROM item_terms WHERE term > ? AND term LIKE ? ORDER BY term LIMIT 1")
                    .params(last, prefix + "%").query(String.class).optional();
            if (next.isEmpty()) {
                break;
            }
            last = next.get();
            terms.add(last);
        }
        if (terms.size() > SearchText.MAX_PREFIX_TERMS) {
            throw new InvalidSearchException(InvalidSearchException.Reason.PREFIX_TOO_BROAD,
                    "has a prefix (" + prefix + "*) that more than " + SearchText.MAX_PREFIX_TERMS
                            + " indexed words start with; type more letters before the *");
        }
        if (prefix.chars().allMatch(c -> c >= 'a' && c <= 'z')) {
            List<String> stems = new ArrayList<>();
            stems.add(WordAnalysis.term(prefix));
            ENDINGS.forEach(ending -> stems.add(WordAnalysis.term(prefix + ending)));
            stems.stream().filter(stem -> !stem.startsWith(prefix) && stem.length() >= SearchText.MIN_PREFIX_CHARS)
                    .distinct().forEach(stem -> terms.add(stem));
        }
        return List.copyOf(terms);
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
     * The item id past which the driving group's walk stops: that of its row just beyond the newest
     * {@link SearchSettings#maxRowsWalked()}, or null when it has no more rows than those (the
     * rarity count, when taken, usually tells without reading further). A prefix's terms share the
     * cap: each walks its newest cap / n rows, and the walk stops at the highest of their floors.
     */
    private @Nullable Long walkFloor(List<String> group, Map<String, Long> rows) {
        if (group.size() == 1) {
            Long counted = rows.get(group.getFirst());
            if (counted != null && counted < RARITY_PROBE && counted <= settings.maxRowsWalked()) {
                return null;
            }
        }
        int share = Math.max(1, settings.maxRowsWalked() / group.size());
        String sql = group.stream()
                .map(t -> "(SELECT item_id FROM item_terms WHERE term = ? ORDER BY item_id DESC LIMIT 1 OFFSET " + share + ")")
                .collect(Collectors.joining(" UNION ALL "));
        return jdbc.sql("SELECT item_id FROM (" + sql + ") f ORDER BY item_id DESC LIMIT 1").params(List.copyOf(group))
                .query(Long.class).optional().orElse(null);
    }

    /**
     * Two branches, each matching every term: (1) the driving term's rows newest first, above the
     * walk's floor, kept to the subscribed sources in reach (each with the media types its filter
     * lets through), at most {@value #CANDIDATES}; (2) their inbox rows from other sources and their
     * stars, probed. Then ranked, cut after the cursor, one more than the page.
     */
    private static String sql(Plan plan, @Nullable SearchCursor after, int limit, List<Object> args) {
        long userId = plan.userId();
        SearchQuery query = plan.query();
        List<List<String>> terms = plan.groups();
        Map<Integer, List<Long>> reach = plan.reach();
        Set<Long> subscribed = plan.subscribed();
        Long floor = plan.floor();
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
            sql.append(" WHERE ").append(termIs("t0", terms.getFirst(), args));
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
                + " WHERE st.user_id = ?) o JOIN item_terms t0 ON ");
        args.add(userId);
        sql.append(termIs("t0", terms.getFirst(), args)).append(" AND t0.item_id = o.item_id AND t0.source_id = o.source_id");
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
        if (after != null) {
            sql.append(" WHERE g.score < ? OR (g.score = ? AND g.item_id < ?)");
            args.add(after.score());
            args.add(after.score());
            args.add(after.itemId());
        }
        sql.append(" ORDER BY g.score DESC, g.item_id DESC LIMIT ?");
        args.add(limit);
        return sql.toString();
    }

    /**
     * Each further term group and the tag filter: one primary-key probe each on (term, item, source),
     * one per term of a prefix's group (an item holding several of them is ranked once, by its story).
     */
    private static void probes(StringBuilder sql, SearchQuery query, List<List<String>> terms, List<Object> args) {
        for (int i = 1; i < terms.size(); i++) {
            sql.append(" JOIN item_terms t").append(i).append(" ON ").append(termIs("t" + i, terms.get(i), args))
                    .append(" AND t").append(i).append(".item_id = t0.item_id AND t").append(i).append(".source_id = t0.source_id");
        }
        if (query.tag() != null) {
            sql.append(" JOIN item_terms tg ON tg.term = ? AND tg.item_id = t0.item_id AND tg.source_id = t0.source_id");
            args.add(SearchTerms.tagTerm(query.tag()));
        }
    }

    /** {@code t.term = ?} for a word, {@code t.term IN (…)} for a prefix's terms; their values added to {@code args}. */
    private static String termIs(String alias, List<String> group, List<Object> args) {
        args.addAll(group);
        return group.size() == 1 ? alias + ".term = ?" : alias + ".term IN (" + placeholders(group.size()) + ")";
    }

    private static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }
}
