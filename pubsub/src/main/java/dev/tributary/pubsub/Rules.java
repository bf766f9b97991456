package dev.tributary.pubsub;

import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * A person's filter rules (the {@code rules} table, keyed by person first): create, change,
 * delete, list. Each is checked when written (its pattern by {@link RuleMatcher}, its scope
 * against the person's subscriptions and folders, their count by {@link PersonQuotas}); they
 * act when items are delivered ({@link DeliveryRules}), never on entries already delivered.
 */
@Service
public class Rules {

    static final RowMapper<Rule> RULE = (rs, n) -> new Rule(rs.getLong("id"), rs.getLong("user_id"),
            RuleAction.ofKey(rs.getString("action")), RuleField.ofKey(rs.getString("field")),
            RuleSyntax.ofKey(rs.getString("kind")), rs.getString("pattern"), rs.getObject("source_id", Long.class),
            rs.getObject("folder_id", Long.class), rs.getLong("matched"), rs.getTimestamp("created_at").toInstant());

    private final JdbcClient jdbc;
    private final IdGenerator ids;
    private final Transactions tx;
    private final PersonQuotas quotas;
    private final Clock clock;

    Rules(JdbcClient jdbc, IdGenerator ids, Transactions tx, PersonQuotas quotas, ObjectProvider<Clock> clock) {
        this.jdbc = jdbc;
        this.ids = ids;
        this.tx = tx;
        this.quotas = quotas;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    /** Longest pattern a rule may have, in characters. */
    public static int maxPatternLength() {
        return RuleMatcher.MAX_PATTERN_LENGTH;
    }

    /**
     * A new rule, acting on items delivered from now on.
     *
     * @throws InvalidRuleException if its pattern is refused, or its scope is not one of the person's sources or folders
     * @throws QuotaExceededException if the person has {@code tributary.limits.rules} rules already
     */
    public Rule create(long userId, RuleDraft draft) {
        RuleMatcher.check(draft.syntax(), draft.pattern());
        return tx.write("create rule of " + userId, () -> {
            checkScope(userId, draft);
            quotas.claim(userId, Quota.RULES, () -> count(userId));
            Rule rule = new Rule(ids.next(), userId, draft.action(), draft.field(), draft.syntax(), draft.pattern(),
                    draft.sourceId(), draft.folderId(), 0, clock.instant().truncatedTo(ChronoUnit.MICROS));
            jdbc.sql("""
                    INSERT INTO rules (user_id, id, action, field, kind, pattern, source_id, folder_id, matched, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)""")
                    .params(userId, rule.id(), rule.action().key(), rule.field().key(), rule.syntax().key(), rule.pattern(),
                            rule.sourceId(), rule.folderId(), rule.createdAt()).update();
            return rule;
        });
    }

    /**
     * Makes a rule this draft. A rule that now matches differently starts counting again from 0.
     *
     * @throws RuleNotFoundException if the person has no such rule
     * @throws InvalidRuleException as {@link #create} does
     */
    public Rule update(long userId, long ruleId, RuleDraft draft) {
        RuleMatcher.check(draft.syntax(), draft.pattern());
        return tx.write("update rule " + ruleId, () -> {
            Rule rule = jdbc.sql("SELECT * FROM rules WHERE user_id = ? AND id = ? FOR UPDATE").params(userId, ruleId)
                    .query(RULE).optional().orElseThrow(() -> new RuleNotFoundException(ruleId));
            if (rule.draft().equals(draft)) {
                return rule;
            }
            checkScope(userId, draft);
            jdbc.sql("""
                    UPDATE rules SET action = ?, field = ?, kind = ?, pattern = ?, source_id = ?, folder_id = ?, matched = 0
                    WHERE user_id = ? AND id = ?""")
                    .params(draft.action().key(), draft.field().key(), draft.syntax().key(), draft.pattern(), draft.sourceId(),
                            draft.folderId(), userId, ruleId).update();
            return new Rule(ruleId, userId, draft.action(), draft.field(), draft.syntax(), draft.pattern(), draft.sourceId(),
                    draft.folderId(), 0, rule.createdAt());
        });
    }

    /** Deletes a rule; false if the person had none of this id. */
    public boolean delete(long userId, long ruleId) {
        return tx.write("delete rule " + ruleId,
                () -> jdbc.sql("DELETE FROM rules WHERE user_id = ? AND id = ?").params(userId, ruleId).update() > 0);
    }

    public Optional<Rule> find(long userId, long ruleId) {
        return jdbc.sql("SELECT * FROM rules WHERE user_id = ? AND id = ?").params(userId, ruleId).query(RULE).optional();
    }

    /** The person's rules, oldest first. */
    public List<Rule> of(long userId) {
        return jdbc.sql("SELECT * FROM rules WHERE user_id = ? ORDER BY id").param(userId).query(RULE).list();
    }

    /** Rules a person may hold. */
    public int limit() {
        return quotas.limit(Quota.RULES);
    }

    private long count(long userId) {
        return jdbc.sql("SELECT COUNT(*) FROM rules WHERE user_id = ?").param(userId).query(Long.class).single();
    }

    private void checkScope(long userId, RuleDraft draft) {
        if (draft.sourceId() != null && draft.folderId() != null) {
            throw new InvalidRuleException("folder_id", "cannot be given with source_id: a rule applies to one source, one folder or all");
        }
        if (draft.sourceId() != null && jdbc.sql("SELECT id FROM subscriptions WHERE user_id = ? AND source_id = ?")
                .params(userId, draft.sourceId()).query(Long.class).optional().isEmpty()) {
            throw new InvalidRuleException("source_id", "is not a source you follow");
        }
        if (draft.folderId() != null && jdbc.sql("SELECT id FROM folders WHERE user_id = ? AND id = ?")
                .params(userId, draft.folderId()).query(Long.class).optional().isEmpty()) {
            throw new InvalidRuleException("folder_id", "is not one of your folders");
        }
    }
}
