package dev.tributary.pubsub;

import java.util.Locale;

/**
 * A search query no search can serve: too long, without words, with too many, with broken syntax
 * (an unclosed quote, a misplaced or too early {@code *}, control characters) or a prefix that
 * stands for too many words; the API answers 400.
 */
public class InvalidSearchException extends PubsubException {

    /** Why the query was refused; {@link #wireName} is the stable key clients branch on. */
    public enum Reason {
        EMPTY_QUERY, QUERY_TOO_LONG, TOO_MANY_TERMS, INVALID_CHARACTERS, UNBALANCED_QUOTE, MISPLACED_WILDCARD,
        PREFIX_TOO_SHORT, PREFIX_TOO_BROAD, TOO_MANY_PREFIXES;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Reason reason;
    private final String problem;

    public InvalidSearchException(Reason reason, String problem) {
        super("query " + problem);
        this.reason = reason;
        this.problem = problem;
    }

    public Reason reason() {
        return reason;
    }

    /** What is wrong, as a phrase after "the query": "is longer than 500 characters". */
    public String problem() {
        return problem;
    }
}
