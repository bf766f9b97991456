package dev.tributary.pubsub;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How much matching one person's filter rules may cost ({@code tributary.rules.*}), in units of
 * one regex instruction stepped over one character ({@link RuleMatcher#cost}; about 1–5 ns
 * each with RE2J). A rule whose cost does not fit what is left is not run: the item is delivered
 * as if that rule had not matched, and a {@code keep_only} rule not run lets the item through
 * (see {@link DeliveryRules}), so a budget never drops an item.
 *
 * @param itemBudget what one person's rules may cost on one item
 * @param batchBudget what one person's rules may cost on all the items of one fan-out batch or
 *        back-fill together
 */
@ConfigurationProperties("tributary.rules")
@Validated
public record RuleSettings(
        @Min(1) @Max(1_000_000_000_000L) @DefaultValue("10000000") long itemBudget,
        @Min(1) @Max(1_000_000_000_000L) @DefaultValue("50000000") long batchBudget) {
}
