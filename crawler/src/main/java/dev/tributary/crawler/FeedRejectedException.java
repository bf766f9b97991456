package dev.tributary.crawler;

import java.util.Objects;

/**
 * A url that cannot be subscribed to: not a valid http(s) url, not reachable, or neither a feed
 * nor a page naming one. {@code reason} is a stable key (e.g. {@code invalid_url},
 * {@code blocked_address}, {@code timeout}, {@code not_a_feed}, {@code no_feed_found}); the
 * message says why in words a subscriber understands (the API's 422 detail).
 */
public class FeedRejectedException extends RuntimeException {

    private final String reason;

    public FeedRejectedException(String reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public String reason() {
        return reason;
    }
}
