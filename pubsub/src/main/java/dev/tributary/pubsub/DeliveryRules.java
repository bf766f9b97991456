package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.InboxRow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Applies people's filter rules to inbox rows about to be delivered (a fan-out batch, a
 * back-fill) in two steps. {@link #decide} matches the rules, before the delivering transaction
 * and outside any other (matching holds no lock, so a costly rule delays no one else's writes),
 * each person within their {@link RuleSettings budget}. {@link #plan} then applies those
 * verdicts inside the delivering transaction, so unread counts stay exact: a dropped item gets
 * no row, a mark-read one is inserted read, a starred one is starred. Drop and keep-only decide
 * first; mark-read and star then apply to what is delivered. The rules of a batch's people are
 * one query; a batch none of whose people has a rule costs that query and nothing else. Rules
 * act on delivery only, never on rows already there.
 */
@Component
public class DeliveryRules {

    private static final Logger log = LoggerFactory.getLogger(DeliveryRules.class);

    private final JdbcClient jdbc;
    private final Items items;
    private final DeliveredStars stars;
    private final RuleSettings settings;
    private final RuleMetrics metrics;

    DeliveryRules(JdbcClient jdbc, Items items, DeliveredStars stars, RuleSettings settings, RuleMetrics metrics) {
        this.jdbc = jdbc;
        this.items = items;
        this.stars = stars;
        this.settings = settings;
        this.metrics = metrics;
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

    /** What one person's rules made of one row: the rules that matched, whether it goes, is read, is starred. */
    private record Verdict(List<Rule> matched, boolean dropped, boolean read, boolean star) {}

    /**
     * The rules' verdicts on rows, reached by {@link #decide}; rows they do not name (their person
     * had no rules) are delivered as they are.
     */
    public static final class Verdicts {

        /** No verdict: every row delivered as it is. */
        public static final Verdicts NONE = new Verdicts(Map.of());

        /** By (person, item, source). */
        private final Map<List<Long>, Verdict> byRow;

        private Verdicts(Map<List<Long>, Verdict> byRow) {
            this.byRow = byRow;
        }

        private @Nullable Verdict of(InboxRow row) {
            return byRow.get(key(row));
        }

        private static List<Long> key(InboxRow row) {
            return List.of(row.userId(), row.itemId(), row.sourceId());
        }
    }

    /** {@link #decide(List, Collection)} for every person of the rows. */
    public Verdicts decide(List<InboxRow> rows) {
        return decide(rows, rows.stream().map(InboxRow::userId).distinct().toList());
    }

    /**
     * Matches the rules of the rows' people, where only {@code withRules} may have rules: reads
     * their rules (one query, none if {@code withRules} is empty) and, only if some have rules,
     * the items. Call it outside any transaction: it runs every person's rules on every row of
     * theirs, each person within {@code tributary.rules.item-budget} per row and
     * {@code batch-budget} for all their rows. A rule that does not fit is not run, as if it had
     * not matched, but a {@code keep_only} rule not run lets its scope through: a budget never
     * drops an item. Such rows are counted ({@code tributary.rules.overruns}) and logged.
     */
    public Verdicts decide(List<InboxRow> rows, Collection<Long> withRules) {
        return decide(rows, withRules, Map.of());
    }

    /**
     * {@link #decide(List)} for subscriptions about to be made: {@code filing} names, by person,
     * the folders each new subscription will be filed in (folder → sources), which the person's
     * folder rules see as if it were filed already: a subscription made into a folder gets that
     * folder's rules from its first item on.
     */
    public Verdicts decide(List<InboxRow> rows, Map<Long, Map<Long, Set<Long>>> filing) {
        return decide(rows, rows.stream().map(InboxRow::userId).distinct().toList(), filing);
    }

    private Verdicts decide(List<InboxRow> rows, Collection<Long> withRules, Map<Long, Map<Long, Set<Long>>> filing) {
        if (rows.isEmpty() || withRules.isEmpty()) {
            return Verdicts.NONE;
        }
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            // Not refused (delivery must go on), but a caller to fix: the transaction's locks are held meanwhile.
            metrics.matchedInTransaction();
            log.warn("filter rules matched inside a transaction, holding its locks meanwhile", new IllegalStateException("here"));
        }
        Map<Long, List<Rule>> rulesByUser = rulesOf(List.copyOf(withRules));
        if (rulesByUser.isEmpty()) {
            return Verdicts.NONE;
        }
        List<Long> itemIds = rows.stream().filter(row -> rulesByUser.containsKey(row.userId())).map(InboxRow::itemId).distinct()
                .toList();
        Map<Long, RuleMatcher.ItemText> bodies = new HashMap<>();
        items.getAll(itemIds).forEach(item -> bodies.put(item.id(), new RuleMatcher.ItemText(item.body())));
        Map<Long, Map<Long, Set<Long>>> folders = new HashMap<>(foldersOf(rulesByUser));
        filing.forEach((user, byFolder) -> byFolder.forEach((folder, sourceIds) -> {
            Map<Long, Set<Long>> personFolders = new HashMap<>(folders.getOrDefault(user, Map.of()));
            Set<Long> filed = new java.util.HashSet<>(personFolders.getOrDefault(folder, Set.of()));
            filed.addAll(sourceIds);
            personFolders.put(folder, filed);
            folders.put(user, personFolders);
        }));
        Map<Long, RuleMatcher> matchers = new HashMap<>();
        rulesByUser.values().forEach(rules -> rules.forEach(rule -> matchers.put(rule.id(), matcher(rule))));
        Map<Long, RuleBudget> budgets = new HashMap<>();
        Map<List<Long>, Verdict> verdicts = new HashMap<>();
        Set<Long> overrun = new TreeSet<>();
        for (InboxRow row : rows) {
            List<Rule> rules = rulesByUser.get(row.userId());
            RuleMatcher.ItemText item = bodies.get(row.itemId());
            if (rules == null || item == null) {
                // No rules, or an item gone since (its retraction removes the row).
                continue;
            }
            Map<Long, Set<Long>> personFolders = folders.getOrDefault(row.userId(), Map.of());
            List<Rule> applicable = rules.stream().filter(rule -> inScope(rule, row.sourceId(), personFolders)).toList();
            RuleBudget budget = budgets.computeIfAbsent(row.userId(),
                    user -> new RuleBudget(settings.itemBudget(), settings.batchBudget()));
            verdicts.put(Verdicts.key(row), verdict(item, applicable, matchers, budget));
            metrics.itemMatched(budget.itemSpent(), budget.itemOverrun());
            if (budget.itemOverrun()) {
                overrun.add(row.userId());
            }
        }
        if (!overrun.isEmpty()) {
            log.info("filter rules of {} people not all run on {} rows for want of budget (delivered as if they had not matched): {}",
                    overrun.size(), rows.size(), overrun.stream().limit(20).toList());
        }
        return new Verdicts(verdicts);
    }

    /** One person's rules on one item, oldest rule first, each run only if its cost fits the budget. */
    private static Verdict verdict(RuleMatcher.ItemText item, List<Rule> applicable, Map<Long, RuleMatcher> matchers,
            RuleBudget budget) {
        budget.startItem();
        List<Rule> matched = new ArrayList<>();
        List<Rule> notRun = new ArrayList<>();
        for (Rule rule : applicable) {
            RuleMatcher matcher = matchers.get(rule.id());
            if (!budget.charge(matcher.cost(item))) {
                notRun.add(rule);
            } else if (matcher.matches(item)) {
                matched.add(rule);
            }
        }
        boolean drop = matched.stream().anyMatch(rule -> rule.action() == RuleAction.DROP);
        // Keep-only: each scope that has keep-only rules must be satisfied by one of them, or by one not run.
        Set<List<Long>> keptScopes = scopes(matched);
        keptScopes.addAll(scopes(notRun));
        if (drop || !keptScopes.containsAll(scopes(applicable))) {
            return new Verdict(matched.stream().filter(rule -> rule.action() == RuleAction.DROP).toList(), true, false, false);
        }
        boolean read = matched.stream().anyMatch(rule -> rule.action() == RuleAction.MARK_READ);
        boolean star = matched.stream().anyMatch(rule -> rule.action() == RuleAction.STAR);
        return new Verdict(List.copyOf(matched), false, read, star);
    }

    private static Set<List<Long>> scopes(List<Rule> rules) {
        return rules.stream().filter(rule -> rule.action() == RuleAction.KEEP_ONLY)
                .map(rule -> java.util.Arrays.asList(rule.sourceId(), rule.folderId())).collect(Collectors.toCollection(HashSet::new));
    }

    /**
     * The plan of these rows under verdicts {@link #decide} reached (for these rows or more): no
     * matching, no query. Rows without a verdict are delivered as they are.
     */
    public Plan plan(List<InboxRow> rows, Verdicts verdicts) {
        if (rows.isEmpty() || verdicts.byRow.isEmpty()) {
            return unchanged(rows);
        }
        return new Applied(rows, verdicts);
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

    /** The rows' fate by their verdicts, and their effects kept for {@link #delivered}. */
    private final class Applied implements Plan {

        private final List<InboxRow> kept = new ArrayList<>();
        /** Per kept (person, item): the rules that matched it and whether one stars it. */
        private final Map<List<Long>, Verdict> effects = new HashMap<>();
        /** Matches of drop rules on rows not delivered. */
        private final Map<Rule, Long> dropMatches = new HashMap<>();

        Applied(List<InboxRow> rows, Verdicts verdicts) {
            for (InboxRow row : rows) {
                Verdict verdict = verdicts.of(row);
                if (verdict == null) {
                    kept.add(row);
                } else if (verdict.dropped()) {
                    verdict.matched().forEach(rule -> dropMatches.merge(rule, 1L, Long::sum));
                } else {
                    kept.add(verdict.read() && !row.read()
                            ? new InboxRow(row.userId(), row.itemId(), row.sourceId(), row.media(), true, row.story()) : row);
                    if (!verdict.matched().isEmpty()) {
                        effects.put(List.of(row.userId(), row.itemId()), verdict);
                    }
                }
            }
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
                Verdict effect = effects.get(List.of(row.userId(), row.itemId()));
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
