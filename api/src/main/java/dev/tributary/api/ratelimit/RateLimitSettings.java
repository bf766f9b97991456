package dev.tributary.api.ratelimit;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Request limits of the API ({@code tributary.api.rate-limit.*}), counted in Redis so that every
 * node shares them.
 * @param enabled whether requests are counted at all
 * @param requests requests one token may make per window
 * @param window the length of a window, which starts at a bucket's first request
 * @param anonymousRequests requests per window from one client address without a token (the open endpoints)
 */
@ConfigurationProperties("tributary.api.rate-limit")
@Validated
public record RateLimitSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("300") @Min(1) int requests,
        @DefaultValue("5m") Duration window,
        @DefaultValue("30") @Min(1) int anonymousRequests) {

    public RateLimitSettings {
        if (window.toMillis() < 1000) {
            throw new IllegalArgumentException("tributary.api.rate-limit.window must be at least 1s, not " + window);
        }
    }
}
