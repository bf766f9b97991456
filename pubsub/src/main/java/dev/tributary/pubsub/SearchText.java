package dev.tributary.pubsub;

import java.util.List;

/**
 * What a person searched for: the text as given and its terms (normalised as items are), all of
 * which a hit must hold. Made only by {@link #parse}, which refuses what no search can serve.
 */
public record SearchText(String text, List<String> terms) {

    /** Longest query, in characters: a query is a few words, and each term is an index read. */
    public static final int MAX_CHARS = 500;
    /** Most distinct terms a query may have (a CJK run of n characters has n - 1): each is one index probe per candidate. */
    public static final int MAX_TERMS = 16;

    public SearchText {
        terms = List.copyOf(terms);
    }

    /**
     * The query's terms.
     *
     * @throws InvalidSearchException if it is longer than {@link #MAX_CHARS}, has no term (only
     *         spaces, punctuation or emoji) or more than {@link #MAX_TERMS}
     */
    public static SearchText parse(String text) {
        if (text.length() > MAX_CHARS) {
            throw new InvalidSearchException(InvalidSearchException.Reason.QUERY_TOO_LONG,
                    "is longer than " + MAX_CHARS + " characters");
        }
        List<String> terms = SearchTerms.of(text, MAX_TERMS + 1);
        if (terms.isEmpty()) {
            throw new InvalidSearchException(InvalidSearchException.Reason.EMPTY_QUERY,
                    "has no words to search for");
        }
        if (terms.size() > MAX_TERMS) {
            throw new InvalidSearchException(InvalidSearchException.Reason.TOO_MANY_TERMS,
                    "has more than " + MAX_TERMS + " distinct words");
        }
        return new SearchText(text, terms);
    }
}
