package dev.tributary.api.rule;

import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Rule;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A filter rule as the API shows it, with how many delivered items it has acted on. */
@Schema(description = "One of the caller's filter rules: applied to items as they are delivered to the caller's inbox, "
        + "never to entries already there.")
public record RuleView(
        String id,
        @Schema(allowableValues = {"keep_only", "drop", "mark_read", "star"}) String action,
        @Schema(allowableValues = {"any", "title", "summary", "url", "author", "tags"}) String field,
        @Schema(allowableValues = {"text", "regex"}) String match,
        String pattern,
        @Schema(description = "The one source the rule applies to; null with folder_id null: every source.") @Nullable String sourceId,
        @Schema(description = "The folder whose sources the rule applies to.") @Nullable String folderId,
        @Schema(description = "Deliveries the rule acted on since it was created or last changed.") long matched,
        Instant createdAt) {

    static RuleView of(Rule rule) {
        return new RuleView(Ids.format(rule.id()), rule.action().key(), rule.field().key(), rule.syntax().key(), rule.pattern(),
                rule.sourceId() == null ? null : Ids.format(rule.sourceId()),
                rule.folderId() == null ? null : Ids.format(rule.folderId()), rule.matched(), rule.createdAt());
    }
}
