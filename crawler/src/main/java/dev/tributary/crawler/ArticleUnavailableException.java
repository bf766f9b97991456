package dev.tributary.crawler;

import java.util.Objects;

/**
 * An entry's full article that cannot be had: its page did not answer, is refused by the guards
 * (a non-public address, too large, too slow), is not HTML or holds no readable article.
 * {@link #reason()} says which, in the vocabulary subscriptions use; the message says why in words
 * a reader understands.
 */
public final class ArticleUnavailableException extends RuntimeException {

    private final RejectionReason reason;

    ArticleUnavailableException(RejectionReason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public RejectionReason reason() {
        return reason;
    }
}
