package dev.tributary.pubsub;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a person searched for: the text as given; its terms (normalised as items are), all of which
 * a hit must hold; its prefixes (a word ending in {@code *}, folded but not stemmed), each of which
 * a hit must hold a term starting with; and its phrases (words in double quotes, two or more
 * terms), each of which a hit must hold as adjacent terms. Made only by {@link #parse}, which
 * refuses what no search can serve and says what is allowed.
 */
public record SearchText(String text, List<String> terms, List<String> prefixes, List<List<String>> phrases) {

    /** Longest query, in characters: a query is a few words, and each term is an index read. */
    public static final int MAX_CHARS = 500;
    /**
     * Most distinct terms and prefixes a query may have together (a CJK run of n characters has
     * n - 1 terms, a phrase one a word): each is one index probe per candidate.
     */
    public static final int MAX_TERMS = 16;
    /** Most words ending in {@code *} in one query: each may stand for {@link #MAX_PREFIX_TERMS} terms. */
    public static final int MAX_PREFIXES = 4;
    /** Fewest letters before a {@code *}: a shorter prefix is most of the dictionary. */
    public static final int MIN_PREFIX_CHARS = 3;
    /** Most indexed terms one prefix may stand for: each is a probe per candidate, so a broader one is refused. */
    public static final int MAX_PREFIX_TERMS = 20;

    private static final String SYNTAX = "words, \"a phrase in double quotes\" and a word ending in * (at least "
            + MIN_PREFIX_CHARS + " letters before it, as in aggregat*)";

    public SearchText {
        terms = List.copyOf(terms);
        prefixes = List.copyOf(prefixes);
        phrases = phrases.stream().map(List::copyOf).toList();
    }

    /**
     * The query's terms, prefixes and phrases.
     *
     * @throws InvalidSearchException if it is longer than {@link #MAX_CHARS}, holds control
     *         characters, has an unclosed quote, a misplaced {@code *} or one after fewer than
     *         {@link #MIN_PREFIX_CHARS} letters, no term (only spaces, punctuation or emoji), more
     *         than {@link #MAX_TERMS} or more than {@link #MAX_PREFIXES} prefixes
     */
    public static SearchText parse(String text) {
        if (text.length() > MAX_CHARS) {
            throw new InvalidSearchException(InvalidSearchException.Reason.QUERY_TOO_LONG,
                    "is longer than " + MAX_CHARS + " characters");
        }
        if (text.codePoints().anyMatch(SearchText::isControl)) {
            throw new InvalidSearchException(InvalidSearchException.Reason.INVALID_CHARACTERS,
                    "holds control characters; it may hold " + SYNTAX);
        }
        String quoted = text.replace('\u201C', '"').replace('\u201D', '"').replace('\u201E', '"');
        String[] parts = quoted.split("\"", -1);
        if (parts.length % 2 == 0) {
            throw new InvalidSearchException(InvalidSearchException.Reason.UNBALANCED_QUOTE,
                    "has a quote that is not closed; put a phrase between two double quotes, as in \"feed reader\"");
        }
        Set<String> terms = new LinkedHashSet<>();
        Set<String> prefixes = new LinkedHashSet<>();
        List<List<String>> phrases = new ArrayList<>();
        for (int k = 0; k < parts.length; k++) {
            if (k % 2 == 1) {
                phrase(parts[k], terms, phrases);
            } else {
                for (String chunk : parts[k].split("\\s+")) {
                    words(chunk, terms, prefixes);
                }
            }
            if (terms.size() + prefixes.size() > MAX_TERMS) {
                throw tooManyTerms();
            }
        }
        if (terms.isEmpty() && prefixes.isEmpty()) {
            throw new InvalidSearchException(InvalidSearchException.Reason.EMPTY_QUERY,
                    "has no words to search for; it may hold " + SYNTAX);
        }
        if (prefixes.size() > MAX_PREFIXES) {
            throw new InvalidSearchException(InvalidSearchException.Reason.TOO_MANY_PREFIXES,
                    "has more than " + MAX_PREFIXES + " words ending in *");
        }
        return new SearchText(text, List.copyOf(terms), List.copyOf(prefixes), phrases);
    }

    private static void phrase(String inside, Set<String> terms, List<List<String>> phrases) {
        if (inside.indexOf('*') >= 0) {
            throw new InvalidSearchException(InvalidSearchException.Reason.MISPLACED_WILDCARD,
                    "has a * inside quotes; a * ends a word outside them, as in aggregat*");
        }
        List<String> sequence = SearchTerms.sequence(inside, MAX_TERMS + 1);
        if (sequence.size() > MAX_TERMS) {
            throw tooManyTerms();
        }
        terms.addAll(sequence);
        if (sequence.size() > 1) {
            phrases.add(sequence);
        }
    }

    /** One run of text between spaces, outside quotes: its words, the last a prefix when a single * ends it. */
    private static void words(String chunk, Set<String> terms, Set<String> prefixes) {
        int star = chunk.indexOf('*');
        if (star < 0) {
            terms.addAll(SearchTerms.of(chunk, MAX_TERMS + 1));
            return;
        }
        String body = chunk.substring(0, star);
        int wordStart = body.length();
        while (wordStart > 0 && isWordChar(body.codePointBefore(wordStart))) {
            wordStart -= Character.charCount(body.codePointBefore(wordStart));
        }
        String word = body.substring(wordStart);
        if (star != chunk.length() - 1 || word.isEmpty()) {
            throw new InvalidSearchException(InvalidSearchException.Reason.MISPLACED_WILDCARD,
                    "has a * that does not end a word; a * goes right after at least " + MIN_PREFIX_CHARS
                            + " letters at the end of a word, as in aggregat*");
        }
        if (word.codePoints().anyMatch(cp -> SearchTerms.isCjk(cp) || SearchTerms.isUnspaced(cp))) {
            throw new InvalidSearchException(InvalidSearchException.Reason.MISPLACED_WILDCARD,
                    "has a * after Chinese, Japanese, Korean, Thai, Lao, Khmer or Myanmar text, which any two of its"
                            + " characters already find; a * ends a word written with spaces, as in aggregat*");
        }
        String prefix = SearchTerms.prefix(word);
        if (prefix.codePointCount(0, prefix.length()) < MIN_PREFIX_CHARS) {
            throw new InvalidSearchException(InvalidSearchException.Reason.PREFIX_TOO_SHORT,
                    "has a * after fewer than " + MIN_PREFIX_CHARS + " letters (" + word + "*); type at least "
                            + MIN_PREFIX_CHARS + ", as in aggregat*");
        }
        terms.addAll(SearchTerms.of(body.substring(0, wordStart), MAX_TERMS + 1));
        prefixes.add(prefix);
    }

    private static boolean isWordChar(int cp) {
        int type = Character.getType(cp);
        return Character.isLetterOrDigit(cp) || type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK;
    }

    /** C0 and C1 controls but tab, line feed and carriage return (which a pasted query may carry, and which separate). */
    private static boolean isControl(int cp) {
        return Character.getType(cp) == Character.CONTROL && cp != '\t' && cp != '\n' && cp != '\r';
    }

    private static InvalidSearchException tooManyTerms() {
        return new InvalidSearchException(InvalidSearchException.Reason.TOO_MANY_TERMS,
                "has more than " + MAX_TERMS + " distinct words (a phrase's words and each * word count)");
    }
}
