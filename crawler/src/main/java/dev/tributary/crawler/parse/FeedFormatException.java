package dev.tributary.crawler.parse;

import java.util.Objects;

/** A body that is not a feed Tributary can read; the message says why, safe to show to the subscriber. */
public class FeedFormatException extends Exception {

    /** Why a body was refused; subscribe-by-URL treats {@link #NOT_A_FEED} as "look for feed links in the page". */
    public enum Reason {
        /** Readable, but not RSS, Atom or JSON Feed (an HTML page, another XML or JSON document, an empty body). */
        NOT_A_FEED,
        /** Meant to be a feed but broken beyond what the lenient parser repairs. */
        MALFORMED,
        /** Declares a DTD: refused outright, as DTDs are how XML entity attacks (XXE, billion laughs) get in. */
        FORBIDDEN_DTD,
        /** Has more XML nodes than a feed's tree may take in memory (a flood of tiny elements, cheap to gzip). */
        TOO_MANY_NODES;

        /** The stable key stored on the source ({@code last_error_key}). */
        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    // Long parser messages are cut so that the text stays fit for a subscriber's screen.
    private static final int MAX_MESSAGE_LENGTH = 300;

    private final Reason reason;

    public FeedFormatException(String message) {
        this(Reason.MALFORMED, message);
    }

    public FeedFormatException(String message, Throwable cause) {
        this(Reason.MALFORMED, message, cause);
    }

    public FeedFormatException(Reason reason, String message) {
        super(shorten(message));
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public FeedFormatException(Reason reason, String message, Throwable cause) {
        super(shorten(message), cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }

    private static String shorten(String message) {
        return message.length() <= MAX_MESSAGE_LENGTH ? message : message.substring(0, MAX_MESSAGE_LENGTH - 1) + "…";
    }
}
