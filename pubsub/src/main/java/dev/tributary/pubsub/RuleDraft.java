package dev.tributary.pubsub;

import org.jspecify.annotations.Nullable;

/**
 * What a person wants a rule to be: its action, the field and pattern it matches, and its scope
 * (one of their sources, one of their folders, or, with neither, everything they follow).
 */
public record RuleDraft(RuleAction action, RuleField field, RuleSyntax syntax, String pattern, @Nullable Long sourceId,
        @Nullable Long folderId) {
}
