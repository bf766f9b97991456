package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a rule's pattern matches in which field, without a database. */
class RuleMatcherTest {

    private static final Item ITEM = new Item(1, "g", "Ärger mit Java", "<p>GC pauses in the <b>JVM</b></p>",
            "https://Example.test/posts/42?utm_source=x", "Ｊａｎｅ Doe", MediaType.TEXT, List.of(), List.of("Release", "jdk-25"),
            Instant.parse("2026-11-01T00:00:00Z"), Instant.parse("2026-11-01T00:00:00Z"), null, null);

    private static boolean matches(RuleField field, RuleSyntax syntax, String pattern) {
        return RuleMatcher.of(field, syntax, pattern).matches(new RuleMatcher.ItemText(ITEM));
    }

    @Test
    void textIsFoundAnywhereInItsFieldFoldedAsSearchFolds() {
        assertThat(matches(RuleField.TITLE, RuleSyntax.TEXT, "ÄRGER")).isTrue();
        assertThat(matches(RuleField.TITLE, RuleSyntax.TEXT, "pauses")).isFalse();
        assertThat(matches(RuleField.SUMMARY, RuleSyntax.TEXT, "gc PAUSES")).isTrue();
        assertThat(matches(RuleField.URL, RuleSyntax.TEXT, "example.test/posts")).isTrue();
        assertThat(matches(RuleField.AUTHOR, RuleSyntax.TEXT, "jane")).as("NFKC folds full-width letters").isTrue();
        assertThat(matches(RuleField.TAGS, RuleSyntax.TEXT, "release")).isTrue();
        assertThat(matches(RuleField.TAGS, RuleSyntax.TEXT, "release jdk")).as("one tag at a time").isFalse();
        assertThat(matches(RuleField.ANY, RuleSyntax.TEXT, "jdk-25")).isTrue();
        assertThat(matches(RuleField.ANY, RuleSyntax.TEXT, "kotlin")).isFalse();
    }

    @Test
    void aRegexMatchesAnywhereWithoutRegardToCase() {
        assertThat(matches(RuleField.TITLE, RuleSyntax.REGEX, "^ärger\\b")).isTrue();
        assertThat(matches(RuleField.URL, RuleSyntax.REGEX, "utm_[a-z]+=")).isTrue();
        assertThat(matches(RuleField.TAGS, RuleSyntax.REGEX, "^jdk-\\d+$")).isTrue();
        assertThat(matches(RuleField.TAGS, RuleSyntax.REGEX, "^jdk-\\d{3}$")).isFalse();
        assertThat(matches(RuleField.SUMMARY, RuleSyntax.REGEX, "<b>jvm</b>")).as("the summary's HTML as stored").isTrue();
    }

    @Test
    void patternsRE2CannotRunOrThatUnrollTooFarAreRefused() {
        assertThatThrownBy(() -> RuleMatcher.of(RuleField.ANY, RuleSyntax.REGEX, "(?=a)b"))
                .isInstanceOf(InvalidRuleException.class).hasMessageContaining("invalid or unsupported Perl syntax");
        assertThatThrownBy(() -> RuleMatcher.of(RuleField.ANY, RuleSyntax.REGEX, "(x{40}){40}"))
                .isInstanceOf(InvalidRuleException.class).hasMessageContaining("repeats too much");
        assertThat(RuleMatcher.of(RuleField.ANY, RuleSyntax.REGEX, "\\d{4}-\\d{2}-\\d{2}")).isNotNull();
        assertThatThrownBy(() -> RuleMatcher.of(RuleField.ANY, RuleSyntax.TEXT, " "))
                .isInstanceOf(InvalidRuleException.class).hasMessageContaining("must not be empty");
    }

    @Test
    void aSyntaxErrorQuotesThePersonsPatternNotTheCaseFlagAddedToIt() {
        assertThatThrownBy(() -> RuleMatcher.of(RuleField.ANY, RuleSyntax.REGEX, "(abc"))
                .isInstanceOf(InvalidRuleException.class)
                .satisfies(refused -> assertThat(((InvalidRuleException) refused).problem())
                        .startsWith("is not a valid regular expression: missing closing )")
                        .doesNotContain("(?i)")
                        .doesNotContain("error parsing regexp"));
    }
}
