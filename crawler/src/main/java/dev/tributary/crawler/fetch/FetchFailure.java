package dev.tributary.crawler.fetch;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A fetch that gave no usable feed body, classified by {@code reason}; {@code detail} is a short
 * human sentence safe to show the feed's subscribers (never a stack trace or a body).
 *
 * @param status the HTTP status, when a response arrived
 * @param retryAfter the server's {@code Retry-After} (429/503), if it sent one
 * @param finalUrl the url that failed, after redirects
 */
public record FetchFailure(
        FailureReason reason,
        String detail,
        @Nullable Integer status,
        @Nullable Duration retryAfter,
        @Nullable URI finalUrl) implements FetchOutcome {

    public FetchFailure {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
    }
}
