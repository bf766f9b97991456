package dev.tributary.crawler.fetch;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How far a fetch may go. {@code allowPrivate} lists CIDR ranges (e.g. {@code 127.0.0.0/8},
 * {@code ::1/128}) the SSRF guard lets through although they are loopback or private.
 */
public record FetchLimits(
        Duration connectTimeout,
        Duration timeout,
        int maxRedirects,
        long maxBodyBytes,
        long maxDecompressedBytes,
        String userAgent,
        List<String> allowPrivate) {

    public FetchLimits {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(userAgent, "userAgent");
        allowPrivate = List.copyOf(allowPrivate);
    }
}
