package dev.tributary.api.rule;

import dev.tributary.api.web.WireId;
import dev.tributary.api.web.NonBlank;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Rule;
import dev.tributary.pubsub.RuleAction;
import dev.tributary.pubsub.RuleDraft;
import dev.tributary.pubsub.RuleField;
import dev.tributary.pubsub.RuleNotFoundException;
import dev.tributary.pubsub.RuleSyntax;
import dev.tributary.pubsub.Rules;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's filter rules: list, create, change, delete. They act on items delivered from then
 * on (pushed delivery: fan-out and a new subscription's first items). Another person's rule is a
 * 404 like one that never existed.
 */
@RestController
class RuleController {

    // Anchored: JSON Schema, where the contract states them, searches rather than matching whole.
    private static final String ACTIONS = "^(?:keep_only|drop|mark_read|star)$";
    private static final String FIELDS = "^(?:any|title|summary|url|author|tags)$";
    private static final String MATCHES = "^(?:text|regex)$";
    private static final String ONE_OF = "must be one of ";

    private static final String ACTION = "keep_only: of the items in the rule's scope, only those matching a keep_only rule "
            + "of that scope are delivered; drop: a matching item is not delivered; mark_read: delivered read; star: delivered "
            + "and starred (skipped once the caller holds the most stars a person may).";
    private static final String PATTERN = "1 to 500 characters. text: found anywhere in the field, without regard to case; "
            + "regex: an RE2 regular expression (no backreferences or lookaround), matched without regard to case.";
    private static final String SOURCE = "A source the caller follows: the rule applies to its items only. In a PATCH, giving "
            + "source_id or folder_id replaces the scope with what is given (\"\": none, so every source).";
    private static final String FOLDER = "One of the caller's folders: the rule applies to the items of the sources filed in "
            + "it. Not with source_id. In a PATCH, as source_id.";

    private final Rules rules;

    RuleController(Rules rules) {
        this.rules = rules;
    }

    /** A new rule. */
    record RuleRequest(
            @Schema(description = ACTION, allowableValues = {"keep_only", "drop", "mark_read", "star"})
            @NotNull @Pattern(regexp = ACTIONS, message = ONE_OF + "keep_only, drop, mark_read, star") String action,
            @Schema(description = "Which text of an item: any of them, or one; tags: any one tag.", defaultValue = "any",
                    allowableValues = {"any", "title", "summary", "url", "author", "tags"})
            @Nullable @Pattern(regexp = FIELDS, message = ONE_OF + "any, title, summary, url, author, tags") String field,
            @Schema(description = "How the pattern reads.", defaultValue = "text", allowableValues = {"text", "regex"})
            @Nullable @Pattern(regexp = MATCHES, message = ONE_OF + "text, regex") String match,
            @Schema(description = PATTERN) @NotNull @NonBlank String pattern,
            @Schema(description = SOURCE) @Nullable @WireId(orEmpty = true) String sourceId,
            @Schema(description = FOLDER) @Nullable @WireId(orEmpty = true) String folderId) {
    }

    /** What {@code PATCH /api/v1/rules/{id}} changes: only what is given. */
    record RulePatch(
            @Schema(description = ACTION, allowableValues = {"keep_only", "drop", "mark_read", "star"})
            @Nullable @Pattern(regexp = ACTIONS, message = ONE_OF + "keep_only, drop, mark_read, star") String action,
            @Schema(allowableValues = {"any", "title", "summary", "url", "author", "tags"})
            @Nullable @Pattern(regexp = FIELDS, message = ONE_OF + "any, title, summary, url, author, tags") String field,
            @Schema(allowableValues = {"text", "regex"})
            @Nullable @Pattern(regexp = MATCHES, message = ONE_OF + "text, regex") String match,
            @Schema(description = PATTERN) @Nullable @NonBlank String pattern,
            @Schema(description = SOURCE) @Nullable @WireId(orEmpty = true) String sourceId,
            @Schema(description = FOLDER) @Nullable @WireId(orEmpty = true) String folderId) {
    }

    @Operation(summary = "The caller's filter rules", description = "Oldest first, each with how many deliveries it acted on.")
    @GetMapping("/api/v1/rules")
    List<RuleView> list(Caller caller) {
        return rules.of(caller.userId()).stream().map(RuleView::of).toList();
    }

    @Operation(summary = "Create a filter rule", description = "It acts on items delivered from now on, not on entries already "
            + "in the inbox. A bad pattern (with RE2's message for a regex), an unknown action or field, or a source or "
            + "folder that is not the caller's is a 400 naming the field; past tributary.limits.rules (100) a 422 "
            + "too_many_rules.")
    @PostMapping("/api/v1/rules")
    @ResponseStatus(HttpStatus.CREATED)
    RuleView create(Caller caller, @Valid @RequestBody RuleRequest request) {
        RuleDraft draft = new RuleDraft(RuleAction.valueOf(upper(request.action())),
                request.field() == null ? RuleField.ANY : RuleField.valueOf(upper(request.field())),
                request.match() == null ? RuleSyntax.TEXT : RuleSyntax.valueOf(upper(request.match())), request.pattern(),
                Ids.optional("source_id", request.sourceId()), Ids.optional("folder_id", request.folderId()));
        if (draft.sourceId() != null && draft.folderId() != null) {
            throw ApiProblem.invalid("folder_id", "cannot be given with source_id");
        }
        return RuleView.of(rules.create(caller.userId(), draft));
    }

    @Operation(summary = "A filter rule")
    @GetMapping("/api/v1/rules/{id}")
    RuleView get(Caller caller, @PathVariable String id) {
        return rules.find(caller.userId(), Ids.path(id, "rule")).map(RuleView::of).orElseThrow(() -> ApiProblem.notFound("rule"));
    }

    @Operation(summary = "Change a filter rule", description = "Changes only what is given, with the rules of creating one; "
            + "a rule that now matches differently counts from 0 again.")
    @PatchMapping("/api/v1/rules/{id}")
    RuleView change(Caller caller, @PathVariable String id, @Valid @RequestBody RulePatch patch) {
        long ruleId = Ids.path(id, "rule");
        Rule rule = rules.find(caller.userId(), ruleId).orElseThrow(() -> ApiProblem.notFound("rule"));
        Long sourceId = rule.sourceId();
        Long folderId = rule.folderId();
        if (patch.sourceId() != null || patch.folderId() != null) {
            // A new scope replaces the old one whole: the field not given is no longer part of it.
            sourceId = scopeId("source_id", patch.sourceId());
            folderId = scopeId("folder_id", patch.folderId());
            if (sourceId != null && folderId != null) {
                throw ApiProblem.invalid("folder_id", "cannot be given with source_id");
            }
        }
        RuleDraft draft = new RuleDraft(patch.action() == null ? rule.action() : RuleAction.valueOf(upper(patch.action())),
                patch.field() == null ? rule.field() : RuleField.valueOf(upper(patch.field())),
                patch.match() == null ? rule.syntax() : RuleSyntax.valueOf(upper(patch.match())),
                patch.pattern() == null ? rule.pattern() : patch.pattern(), sourceId, folderId);
        try {
            return RuleView.of(rules.update(caller.userId(), ruleId, draft));
        } catch (RuleNotFoundException e) {
            // deleted since it was read
            throw ApiProblem.notFound("rule");
        }
    }

    @Operation(summary = "Delete a filter rule", description = "What it did to items already delivered stays.")
    @DeleteMapping("/api/v1/rules/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void delete(Caller caller, @PathVariable String id) {
        if (!rules.delete(caller.userId(), Ids.path(id, "rule"))) {
            throw ApiProblem.notFound("rule");
        }
    }

    private static @Nullable Long scopeId(String field, @Nullable String value) {
        return value == null || value.isEmpty() ? null : Ids.optional(field, value);
    }

    private static String upper(String key) {
        return key.toUpperCase(Locale.ROOT);
    }
}
