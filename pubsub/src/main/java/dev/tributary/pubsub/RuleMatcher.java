package dev.tributary.pubsub;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import org.jspecify.annotations.Nullable;

/**
 * A rule's pattern made ready to match: a text case-folded as search folds
 * ({@link SearchTerms#fold}), or a regular expression compiled by RE2J, whose matching is linear
 * in the text (no pattern can backtrack catastrophically) but also in the compiled program's
 * size. Every field is matched on its first {@link #MATCHED_CHARS} characters only, and a regex's
 * program is at most {@link #MAX_PROGRAM_SIZE} instructions ({@link RegexSize}), so
 * {@link #cost} bounds what matching one item takes before it is run.
 */
final class RuleMatcher {

    /** Longest pattern, in characters. */
    static final int MAX_PATTERN_LENGTH = 500;
    /** Characters of each field (each tag) a rule reads. */
    static final int MATCHED_CHARS = 65_536;
    /**
     * Most instructions a regex may compile to ({@link RegexSize}): matching costs up to this
     * many steps per character, so {@code (a|b|…|z){1000}N} (about 53,000) is refused while
     * {@code \d{4}-\d{2}-\d{2}} (about 20) or {@code [a-z]{1000}} (about 1,000) are not.
     */
    static final long MAX_PROGRAM_SIZE = 2000;
    /**
     * Largest product of a pattern's counted repetitions ({@code {n}}, {@code {n,m}}): RE2 unrolls
     * them, so {@code ((a{1000}){1000}){1000}} would compile to a billion instructions (RE2J runs
     * out of memory). The product bounds the unrolled program whatever the nesting.
     */
    static final long MAX_REPETITION = 1000;

    private static final java.util.regex.Pattern COUNTED = java.util.regex.Pattern.compile("\\{(\\d{1,9})(?:,(\\d{0,9}))?\\}");

    /** Matches no item. */
    static final RuleMatcher NOTHING = new RuleMatcher(RuleField.ANY, false, 0, text -> false);

    private final RuleField field;
    /** Whether {@link #test} reads case-folded text (a text pattern) or the text as written (a regex). */
    private final boolean folded;
    /** What matching one character of text costs at most, in the units of {@link #cost}. */
    private final long perChar;
    private final Predicate<String> test;

    private RuleMatcher(RuleField field, boolean folded, long perChar, Predicate<String> test) {
        this.field = field;
        this.folded = folded;
        this.perChar = perChar;
        this.test = test;
    }

    /**
     * The matcher of a pattern, or why there cannot be one.
     *
     * @throws InvalidRuleException naming {@code pattern}: empty, too long, too large once unrolled, or not RE2 syntax (RE2J's message)
     */
    static RuleMatcher of(RuleField field, RuleSyntax syntax, String pattern) {
        check(syntax, pattern);
        if (syntax == RuleSyntax.TEXT) {
            String needle = SearchTerms.fold(pattern);
            // String.contains scans for the first character fast, then compares: a long needle costs a little more.
            return new RuleMatcher(field, true, 1 + needle.length() / 32, text -> text.contains(needle));
        }
        Pattern compiled = Pattern.compile(pattern, Pattern.CASE_INSENSITIVE);
        return new RuleMatcher(field, false, RegexSize.of(pattern), text -> compiled.matcher(text).find());
    }

    /** Refuses a pattern no rule may have; the message is for the person who wrote it. */
    static void check(RuleSyntax syntax, String pattern) {
        if (pattern.isBlank()) {
            throw new InvalidRuleException("pattern", "must not be empty");
        }
        if (pattern.codePointCount(0, pattern.length()) > MAX_PATTERN_LENGTH) {
            throw new InvalidRuleException("pattern", "must be at most " + MAX_PATTERN_LENGTH + " characters");
        }
        if (syntax == RuleSyntax.REGEX) {
            long product = 1;
            Matcher counted = COUNTED.matcher(pattern);
            while (counted.find()) {
                String upper = counted.group(2) == null || counted.group(2).isEmpty() ? counted.group(1) : counted.group(2);
                product *= Math.max(1, Long.parseLong(upper));
                if (product > MAX_REPETITION) {
                    throw new InvalidRuleException("pattern", "repeats too much: the counts of {n} and {n,m} multiplied "
                            + "may be at most " + MAX_REPETITION);
                }
            }
            long size = RegexSize.of(pattern);
            if (size > MAX_PROGRAM_SIZE) {
                throw new InvalidRuleException("pattern", "is too costly to match: it compiles to about " + size
                        + " instructions (each repetition unrolled, alternatives counted), at most " + MAX_PROGRAM_SIZE);
            }
            try {
                Pattern.compile(pattern, Pattern.CASE_INSENSITIVE);
            } catch (PatternSyntaxException e) {
                // RE2J quotes the pattern as compiled, with the case-insensitive flag it added as "(?i)":
                // the person is shown their own pattern.
                String quoted = e.getPattern() != null && e.getPattern().startsWith("(?i)") && !pattern.startsWith("(?i)")
                        ? e.getPattern().substring(4) : e.getPattern();
                throw new InvalidRuleException("pattern", "is not a valid regular expression: " + e.getDescription()
                        + (quoted == null || quoted.isEmpty() ? "" : " in `" + quoted + "`"));
            }
        }
    }

    /**
     * The most that {@link #matches} can cost on this item: the characters it reads (each field
     * cut to {@link #MATCHED_CHARS}) times the most work per character (a regex's program size),
     * plus one. Known before matching, so a budget is never overrun, only refused.
     */
    long cost(ItemText item) {
        long chars = switch (field) {
            case TITLE -> item.length(item.item().title());
            case SUMMARY -> item.length(item.item().summary());
            case URL -> item.length(item.item().url());
            case AUTHOR -> item.length(item.item().author());
            case TAGS -> tagsLength(item);
            case ANY -> item.length(item.item().title()) + item.length(item.item().summary()) + item.length(item.item().url())
                    + item.length(item.item().author()) + tagsLength(item);
        };
        return 1 + chars * perChar;
    }

    private static long tagsLength(ItemText item) {
        return item.item().tags().stream().mapToLong(item::length).sum();
    }

    /** Whether the item's field (any of them for {@link RuleField#ANY}, any one tag for tags) matches. */
    boolean matches(ItemText item) {
        return switch (field) {
            case TITLE -> test(item, item.item().title());
            case SUMMARY -> test(item, item.item().summary());
            case URL -> test(item, item.item().url());
            case AUTHOR -> test(item, item.item().author());
            case TAGS -> anyTag(item);
            case ANY -> test(item, item.item().title()) || test(item, item.item().summary()) || test(item, item.item().url())
                    || test(item, item.item().author()) || anyTag(item);
        };
    }

    private boolean anyTag(ItemText item) {
        return item.item().tags().stream().anyMatch(tag -> test(item, tag));
    }

    private boolean test(ItemText item, @Nullable String text) {
        return text != null && (folded ? test.test(item.folded(text)) : test.test(item.cut(text)));
    }

    /**
     * An item's texts as rules read them, each cut and folded once however many rules read it (a
     * person may have a hundred; folding 64 KB of summary is the costly part).
     */
    static final class ItemText {

        private final Item item;
        private final Map<String, String> folded = new HashMap<>();

        ItemText(Item item) {
            this.item = item;
        }

        Item item() {
            return item;
        }

        long length(@Nullable String text) {
            return text == null ? 0 : Math.min(text.length(), MATCHED_CHARS);
        }

        String cut(String text) {
            return text.length() > MATCHED_CHARS ? text.substring(0, MATCHED_CHARS) : text;
        }

        String folded(String text) {
            return folded.computeIfAbsent(text, raw -> SearchTerms.fold(cut(raw)));
        }
    }
}
