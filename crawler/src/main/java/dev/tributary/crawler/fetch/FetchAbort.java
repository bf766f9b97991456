package dev.tributary.crawler.fetch;

import org.jspecify.annotations.Nullable;

/**
 * Ends a fetch early with a known {@link FailureReason}; thrown inside the reactive chain and
 * turned into a {@link FetchFailure} at its end. Carries no stack trace: it is an expected
 * outcome (a hostile or broken server), not a bug, and is thrown per fetch.
 */
final class FetchAbort extends RuntimeException {

    private final FailureReason reason;
    private final @Nullable Integer status;

    FetchAbort(FailureReason reason, String detail) {
        this(reason, detail, null);
    }

    FetchAbort(FailureReason reason, String detail, @Nullable Integer status) {
        super(detail, null, false, false);
        this.reason = reason;
        this.status = status;
    }

    FailureReason reason() {
        return reason;
    }

    @Nullable Integer status() {
        return status;
    }
}
