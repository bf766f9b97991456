package dev.tributary.crawler;

import java.util.Objects;

/**
 * A url that cannot be subscribed to: not a valid http(s) url, not reachable, or neither a feed
 * nor a page naming one. {@link #reason()} says which, for the API to name; the message says why
 * in words a subscriber understands (the API's 422 detail).
 */
public final class FeedRejectedException extends RuntimeException {

    private final RejectionReason reason;

    FeedRejectedException(RejectionReason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public RejectionReason reason() {
        return reason;
    }
}
