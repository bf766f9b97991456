package dev.tributary.pubsub;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What one person may hold and do ({@code tributary.limits.*}): counts are checked where the
 * stored thing is created ({@link PersonQuotas}), rates by the API before a post or comment.
 *
 * @param subscriptions feeds, people and groups a person follows (their own source included)
 * @param attachedFeeds feeds attached to a person's profile
 * @param groupsOwned groups a person has created
 * @param memberships groups a person belongs to (owned ones included)
 * @param tokens personal access tokens a person holds
 * @param rules filter rules a person holds (each one is matched against every item delivered to them)
 * @param postsPerMinute posts a person may publish per minute, to their profile and groups together
 * @param commentsPerMinute comments a person may write per minute
 */
@ConfigurationProperties("tributary.limits")
@Validated
public record LimitSettings(
        @Min(1) @Max(1_000_000) @DefaultValue("5000") int subscriptions,
        @Min(1) @Max(10_000) @DefaultValue("50") int attachedFeeds,
        @Min(1) @Max(100_000) @DefaultValue("100") int groupsOwned,
        @Min(1) @Max(1_000_000) @DefaultValue("1000") int memberships,
        @Min(1) @Max(10_000) @DefaultValue("100") int tokens,
        @Min(1) @Max(1_000) @DefaultValue("100") int rules,
        @Min(1) @Max(10_000) @DefaultValue("30") int postsPerMinute,
        @Min(1) @Max(10_000) @DefaultValue("30") int commentsPerMinute) {

    /** The most a person may hold of {@code quota}. */
    public int of(Quota quota) {
        return switch (quota) {
            case SUBSCRIPTIONS -> subscriptions;
            case ATTACHED_FEEDS -> attachedFeeds;
            case GROUPS_OWNED -> groupsOwned;
            case MEMBERSHIPS -> memberships;
            case TOKENS -> tokens;
            case RULES -> rules;
        };
    }
}
