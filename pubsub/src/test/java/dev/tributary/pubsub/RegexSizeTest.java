package dev.tributary.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.re2j.Pattern;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The compiled-size estimate rules are bounded by, and the bound at rule creation. */
class RegexSizeTest {

    private static final String ALPHABET = String.join("|", "abcdefghijklmnopqrstuvwxyz".split(""));

    @Test
    void anAlternationRepeatedCountsItsWidthTimesItsCount() {
        long one = RegexSize.of("(" + ALPHABET + ")");
        assertThat(RegexSize.of("(" + ALPHABET + "){1000}N")).isGreaterThanOrEqualTo(1000 * (one - 2));
        assertThat(RegexSize.of("(?:ab|cd){10}")).isEqualTo(10 * (4 + 1) + 2);
        assertThat(RegexSize.of("a{2,5}")).as("2 copies and 3 optional ones").isEqualTo(2 + 3 * 2 + 2);
        assertThat(RegexSize.of("a{3,}")).isEqualTo(3 + 2 + 2);
        assertThat(RegexSize.of("[a-z(|]{10}")).as("a class is one instruction, its contents literal").isEqualTo(12);
        assertThat(RegexSize.of("\\Q(((\\E{100}")).as("quoted text is literal; RE2 repeats its last character only, "
                + "the estimate all three, which over-counts safely").isGreaterThanOrEqualTo(3 + 99 + 2);
        assertThat(RegexSize.of("\\d{4}-\\d{2}-\\d{2}")).isLessThan(20);
        assertThat(RegexSize.of("(?i)x{5}")).as("a flag group compiles to nothing").isEqualTo(7);
        assertThat(RegexSize.of("a{,5}")).as("not a repeat in RE2: literal characters").isEqualTo(5 + 2);
    }

    @Test
    void theAuditsStallingPatternIsRefusedNamingTheLimit() {
        assertThatThrownBy(() -> RuleMatcher.check(RuleSyntax.REGEX, "(" + ALPHABET + "){1000}N"))
                .isInstanceOf(InvalidRuleException.class)
                .hasMessageContaining("too costly to match").hasMessageContaining("at most " + RuleMatcher.MAX_PROGRAM_SIZE);
        assertThatThrownBy(() -> RuleMatcher.check(RuleSyntax.REGEX, "(?:[a-z]|[0-9]|_){1000}"))
                .isInstanceOf(InvalidRuleException.class).hasMessageContaining("too costly");
        RuleMatcher.check(RuleSyntax.REGEX, "[a-z]{1000}N");
        RuleMatcher.check(RuleSyntax.REGEX, "\\b(bitcoin|crypto|nft|web3)\\b.{0,100}(sale|offer)");
    }

    /**
     * Property over random patterns built from RE2's grammar: a pattern the checks accept
     * compiles, and its estimate is within the bound; one whose estimate is past the bound is
     * refused. A pattern's estimate also grows with its repetition, so {@code (p){k}} is never
     * estimated below {@code k} copies of {@code p}.
     */
    @Test
    void everyAcceptedPatternCompilesAndIsEstimatedWithinTheBound() {
        Random random = new Random(52);
        int accepted = 0;
        int refused = 0;
        for (int i = 0; i < 5_000; i++) {
            String pattern = pattern(random, 3);
            long size = RegexSize.of(pattern);
            boolean ok;
            try {
                RuleMatcher.check(RuleSyntax.REGEX, pattern);
                ok = true;
            } catch (InvalidRuleException e) {
                ok = false;
            }
            if (ok) {
                accepted++;
                assertThat(size).as(pattern).isLessThanOrEqualTo(RuleMatcher.MAX_PROGRAM_SIZE);
                assertThat(Pattern.compile(pattern, Pattern.CASE_INSENSITIVE)).as(pattern).isNotNull();
            } else {
                refused++;
            }
            if (size > RuleMatcher.MAX_PROGRAM_SIZE) {
                assertThat(ok).as(pattern).isFalse();
            }
            int k = 1 + random.nextInt(50);
            assertThat(RegexSize.of("(?:" + pattern + "){" + k + "}")).as(pattern).isGreaterThanOrEqualTo(Math.min(k * (size - 2), 1L << 40));
        }
        assertThat(accepted).as("the generator makes acceptable patterns too").isGreaterThan(500);
        assertThat(refused).as("and costly ones").isGreaterThan(100);
    }

    private static String pattern(Random random, int depth) {
        StringBuilder out = new StringBuilder();
        int parts = 1 + random.nextInt(4);
        for (int i = 0; i < parts; i++) {
            String atom = switch (depth == 0 ? random.nextInt(5) : random.nextInt(8)) {
                case 0 -> String.valueOf((char) ('a' + random.nextInt(26)));
                case 1 -> "[a-z0-9_]";
                case 2 -> "\\d";
                case 3 -> ".";
                case 4 -> "\\Qx+y\\E";
                case 5 -> "(" + pattern(random, depth - 1) + "|" + pattern(random, depth - 1) + ")";
                case 6 -> "(?:" + pattern(random, depth - 1) + ")";
                default -> "(?P<n" + random.nextInt(1000) + ">" + pattern(random, depth - 1) + ")";
            };
            out.append(atom).append(switch (random.nextInt(8)) {
                case 0 -> "*";
                case 1 -> "+";
                case 2 -> "?";
                case 3 -> "{" + random.nextInt(60) + "}";
                case 4 -> "{" + random.nextInt(10) + "," + (10 + random.nextInt(90)) + "}";
                case 5 -> "{" + random.nextInt(20) + ",}";
                default -> "";
            });
        }
        return out.toString();
    }
}
