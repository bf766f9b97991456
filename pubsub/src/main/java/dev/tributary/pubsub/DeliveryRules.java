package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.InboxRow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Applies people's filter rules to inbox rows about to be delivered (a fan-out batch, a
 * back-fill), inside the delivering transaction, so unread counts stay exact: a dropped item
 * gets no row, a mark-read one is inserted read, a starred one is starred. Drop and keep-only
 * decide first; mark-read and star then apply to what is delivered. The rules of a batch's
 * people are one query; a batch none of whose people has a rule costs that query and nothing
 * else. Rules act on delivery only, never on rows already there.
 */
@Component
public class DeliveryRules {

    private final JdbcClient jdbc;
    private final Items items;
    private final DeliveredStars stars;

    DeliveryRules(JdbcClient jdbc, Items items, DeliveredStars stars) {
        this.jdbc = jdbc;
        this.items = items;
        this.stars = stars;
    }

    /**
     * What the rules make of a batch: the rows to insert, and what to do once they are inserted.
     * Call {@link #delivered} in the same transaction with exactly the rows the insert wrote.
     */
    public interface Plan {

        List<InboxRow> rows();

        /** Stars what rules star and moves the rules' matched counts, for these inserted rows and the dropped ones. */
        void delivered(List<InboxRow> inserted);
    }

    /** The plan of these rows; reads the people's rules (one query) and, only if some have rules, the items. */
    public Plan plan(List<InboxRow> rows) {
        return plan(rows, rows.stream().map(InboxRow::userId).distinct().toList());
    }

    /**
     * As {@link #plan(List)}, where only {@code withRules} may have rules (read in the caller's
     * transaction, e.g. with the rows' recipients): no query at all when none has.
     */
    public Plan plan(List<InboxRow> rows, Collection<Long> withRules) {
        if (rows.isEmpty() || withRules.isEmpty()) {
            return unchanged(rows);
        }
        Map<Long, List<Rule>> rulesByUser = rulesOf(List.copyOf(withRules));
        if (rulesByUser.isEmpty()) {
            return unchanged(rows);
        }
        List<Long> itemIds = rows.stream().filter(row -> rulesByUser.containsKey(row.userId())).map(InboxRow::itemId).distinct()
                .toList();
        Map<Long, RuleMatcher.ItemText> bodies = new HashMap<>();
        items.getAll(itemIds).forEach(item -> bodies.put(item.id(), new RuleMatcher.ItemText(item.body())));
        Map<Long, Map<Long, Set<Long>>> folders = foldersOf(rulesByUser);
        Map<Long, RuleMatcher> matchers = new HashMap<>();
        rulesByUser.values().forEach(rules -> rules.forEach(rule -> matchers.put(rule.id(), matcher(rule))));
        return new Applied(rows, rulesByUser, bodies, folders, matchers);
    }

    /** A stored rule that no longer passes the checks (a limit lowered since) matches nothing rather than stop delivery. */
    private static RuleMatcher matcher(Rule rule) {
        try {
            return RuleMatcher.of(rule.field(), rule.syntax(), rule.pattern());
        } catch (InvalidRuleException e) {
            return RuleMatcher.NOTHING;
        }
    }

    private static Plan unchanged(List<InboxRow> rows) {
        return new Plan() {
            @Override
            public List<InboxRow> rows() {
                return rows;
            }

            @Override
            public void delivered(List<InboxRow> inserted) {
            }
        };
    }

    /** The rows' fate decided row by row, and their effects kept for {@link #delivered}. */
    private final class Applied implements Plan {

        private final List<InboxRow> kept = new ArrayList<>();
        /** Per kept (person, item): the rules that matched it and whether one stars it. */
        private final Map<List<Long>, Effect> effects = new HashMap<>();
        /** Matches of drop rules on rows not delivered. */
        private final Map<Rule, Long> dropMatches = new HashMap<>();

        private record Effect(List<Rule> matched, boolean star) {}

        Applied(List<InboxRow> rows, Map<Long, List<Rule>> rulesByUser, Map<Long, RuleMatcher.ItemText> bodies,
                Map<Long, Map<Long, Set<Long>>> folders, Map<Long, RuleMatcher> matchers) {
            for (InboxRow row : rows) {
                List<Rule> rules = rulesByUser.get(row.userId());
                RuleMatcher.ItemText item = bodies.get(row.itemId());
                if (rules == null || item == null) {
                    // No rules, or an item gone since (its retraction removes the row).
                    kept.add(row);
                    continue;
                }
                Map<Long, Set<Long>> personFolders = folders.getOrDefault(row.userId(), Map.of());
                List<Rule> applicable = rules.stream().filter(rule -> inScope(rule, row.sourceId(), personFolders)).toList();
                decide(row, item, applicable, matchers);
            }
        }

        private void decide(InboxRow row, RuleMatcher.ItemText item, List<Rule> applicable, Map<Long, RuleMatcher> matchers) {
            List<Rule> matched = applicable.stream().filter(rule -> matchers.get(rule.id()).matches(item)).toList();
            List<Rule> drops = matched.stream().filter(rule -> rule.action() == RuleAction.DROP).toList();
            // Keep-only: each scope that has keep-only rules must be satisfied by one of them.
            Set<List<Long>> keepScopes = scopes(applicable);
            Set<List<Long>> keptScopes = scopes(matched);
            if (!drops.isEmpty() || !keptScopes.containsAll(keepScopes)) {
                drops.forEach(rule -> dropMatches.merge(rule, 1L, Long::sum));
                return;
            }
            boolean read = matched.stream().anyMatch(rule -> rule.action() == RuleAction.MARK_READ);
            boolean star = matched.stream().anyMatch(rule -> rule.action() == RuleAction.STAR);
            InboxRow delivered = read && !row.read() ? new InboxRow(row.userId(), row.itemId(), row.sourceId(), row.media(), true, row.story()) : row;
            kept.add(delivered);
            if (!matched.isEmpty()) {
                effects.put(List.of(row.userId(), row.itemId()), new Effect(matched, star));
            }
        }

        private static Set<List<Long>> scopes(List<Rule> rules) {
            return rules.stream().filter(rule -> rule.action() == RuleAction.KEEP_ONLY)
                    .map(rule -> java.util.Arrays.asList(rule.sourceId(), rule.folderId())).collect(Collectors.toSet());
        }

        @Override
        public List<InboxRow> rows() {
            return kept;
        }

        @Override
        public void delivered(List<InboxRow> inserted) {
            Map<Rule, Long> counts = new HashMap<>(dropMatches);
            Map<Long, List<Long>> toStar = new LinkedHashMap<>();
            for (InboxRow row : inserted) {
                Effect effect = effects.get(List.of(row.userId(), row.itemId()));
                if (effect == null) {
                    continue;
                }
                effect.matched().forEach(rule -> counts.merge(rule, 1L, Long::sum));
                if (effect.star()) {
                    toStar.computeIfAbsent(row.userId(), user -> new ArrayList<>()).add(row.itemId());
                }
            }
            if (!toStar.isEmpty()) {
                stars.starDelivered(toStar);
            }
            count(counts);
        }
    }

    private static boolean inScope(Rule rule, long sourceId, Map<Long, Set<Long>> personFolders) {
        if (rule.sourceId() != null) {
            return rule.sourceId() == sourceId;
        }
        if (rule.folderId() != null) {
            return personFolders.getOrDefault(rule.folderId(), Set.of()).contains(sourceId);
        }
        return true;
    }

    /**
     * The rules of these people, by person. The ids are written into the statement's text, as
     * the inbox insert does: a page of a thousand placeholders is costly to prepare client-side,
     * and every value is a {@code long}.
     */
    private Map<Long, List<Rule>> rulesOf(List<Long> people) {
        String in = people.stream().map(String::valueOf).collect(Collectors.joining(", "));
        Map<Long, List<Rule>> byUser = new HashMap<>();
        jdbc.sql("SELECT * FROM rules WHERE user_id IN (" + in + ")").query(Rules.RULE).list()
                .forEach(rule -> byUser.computeIfAbsent(rule.userId(), user -> new ArrayList<>()).add(rule));
        return byUser;
    }

    /** For the people with folder-scoped rules, those folders' sources: one query. */
    private Map<Long, Map<Long, Set<Long>>> foldersOf(Map<Long, List<Rule>> rulesByUser) {
        List<String> pairs = new ArrayList<>();
        rulesByUser.values().forEach(rules -> rules.stream().filter(rule -> rule.folderId() != null)
                .forEach(rule -> pairs.add("(" + rule.userId() + ", " + rule.folderId() + ")")));
        if (pairs.isEmpty()) {
            return Map.of();
        }
        Map<Long, Map<Long, Set<Long>>> folders = new HashMap<>();
        jdbc.sql("SELECT user_id, folder_id, source_id FROM folder_sources WHERE (user_id, folder_id) IN ("
                + String.join(", ", pairs) + ")").query(rs -> {
                    folders.computeIfAbsent(rs.getLong(1), user -> new HashMap<>())
                            .computeIfAbsent(rs.getLong(2), folder -> new java.util.HashSet<>()).add(rs.getLong(3));
                });
        return folders;
    }

    /**
     * Moves the rules' matched counts in the delivering transaction, so they commit or roll back
     * with the rows; one statement, its rows locked in key order (person, rule) as every batch does.
     */
    private void count(Map<Rule, Long> counts) {
        if (counts.isEmpty()) {
            return;
        }
        TreeMap<List<Long>, Long> ordered = new TreeMap<>((a, b) -> a.get(0).equals(b.get(0))
                ? Long.compare(a.get(1), b.get(1)) : Long.compare(a.get(0), b.get(0)));
        counts.forEach((rule, n) -> ordered.put(List.of(rule.userId(), rule.id()), n));
        StringBuilder sql = new StringBuilder("UPDATE rules SET matched = matched + CASE");
        ordered.forEach((key, n) -> sql.append(" WHEN user_id = ").append(key.get(0)).append(" AND id = ").append(key.get(1))
                .append(" THEN ").append(n));
        sql.append(" ELSE 0 END WHERE (user_id, id) IN (")
                .append(ordered.keySet().stream().map(key -> "(" + key.get(0) + ", " + key.get(1) + ")").collect(Collectors.joining(", ")))
                .append(")");
        jdbc.sql(sql.toString()).update();
    }
}
