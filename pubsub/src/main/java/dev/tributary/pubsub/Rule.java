package dev.tributary.pubsub;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One of a person's filter rules, as stored: {@code matched} counts the deliveries it acted on
 * since it was made (see {@link DeliveryRules}).
 */
public record Rule(long id, long userId, RuleAction action, RuleField field, RuleSyntax syntax, String pattern,
        @Nullable Long sourceId, @Nullable Long folderId, long matched, Instant createdAt) {

    public RuleDraft draft() {
        return new RuleDraft(action, field, syntax, pattern, sourceId, folderId);
    }
}
