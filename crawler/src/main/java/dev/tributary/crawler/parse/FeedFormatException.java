package dev.tributary.crawler.parse;

/** A body that is not a feed Tributary can read; the message says why, safe to show to the subscriber. */
public class FeedFormatException extends Exception {

    public FeedFormatException(String message) {
        super(message);
    }

    public FeedFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
