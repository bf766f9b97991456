package dev.tributary.pubsub;

import java.util.Locale;

/** A search query no search can serve: too long, without words, or with too many; the API answers 400. */
public class InvalidSearchException extends PubsubException {

    /** Why the query was refused; {@link #wireName} is the stable key clients branch on. */
    public enum Reason {
        EMPTY_QUERY, QUERY_TOO_LONG, TOO_MANY_TERMS;

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
