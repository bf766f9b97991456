package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A person's matching allowance per item and per batch, and what a rule costs on an item. */
class RuleBudgetTest {

    @Test
    void aCostThatDoesNotFitTheItemIsRefusedAndTheNextItemStartsAfresh() {
        RuleBudget budget = new RuleBudget(100, 1_000);
        budget.startItem();
        assertThat(budget.charge(60)).isTrue();
        assertThat(budget.charge(50)).as("60 + 50 > 100").isFalse();
        assertThat(budget.itemOverrun()).isTrue();
        assertThat(budget.charge(40)).as("a cheaper rule still fits").isTrue();
        assertThat(budget.itemSpent()).isEqualTo(100);
        budget.startItem();
        assertThat(budget.itemOverrun()).isFalse();
        assertThat(budget.itemSpent()).isZero();
        assertThat(budget.charge(100)).isTrue();
    }

    @Test
    void theBatchBudgetCapsEveryItemAfterItIsSpent() {
        RuleBudget budget = new RuleBudget(100, 250);
        long spent = 0;
        for (int item = 0; item < 5; item++) {
            budget.startItem();
            while (budget.charge(30)) {
                // as many rules as fit
            }
            assertThat(budget.itemSpent()).isLessThanOrEqualTo(100);
            spent += budget.itemSpent();
        }
        assertThat(spent).isLessThanOrEqualTo(250).isGreaterThan(200);
        budget.startItem();
        assertThat(budget.charge(1)).as("nothing left in the batch").isTrue(); // 250 - 240 = 10 left
        assertThat(budget.charge(10)).isFalse();
    }

    @Test
    void aRuleCostsItsProgramSizeTimesTheCharactersItReadsCutToTheBound() {
        String longSummary = "word ".repeat(20_000);
        Item item = new Item(1, "g", "Title", longSummary, "https://example.test/1", "Someone", MediaType.TEXT, List.of(),
                List.of("one", "two"), Instant.EPOCH, Instant.EPOCH, null, null);
        RuleMatcher.ItemText text = new RuleMatcher.ItemText(item);
        long size = RegexSize.of("[a-z]{1000}N");
        assertThat(RuleMatcher.of(RuleField.SUMMARY, RuleSyntax.REGEX, "[a-z]{1000}N").cost(text))
                .isEqualTo(1 + size * RuleMatcher.MATCHED_CHARS);
        assertThat(RuleMatcher.of(RuleField.TITLE, RuleSyntax.REGEX, "[a-z]{1000}N").cost(text)).isEqualTo(1 + size * 5);
        assertThat(RuleMatcher.of(RuleField.TAGS, RuleSyntax.TEXT, "one").cost(text)).isEqualTo(1 + 6);
        assertThat(RuleMatcher.of(RuleField.ANY, RuleSyntax.TEXT, "one").cost(text))
                .isEqualTo(1 + 5 + RuleMatcher.MATCHED_CHARS + 22 + 7 + 6);
    }
}
