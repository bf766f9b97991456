package dev.tributary.api.hub;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The WebSub hub for Tributary's own exports ({@code tributary.hub.*}).
 *
 * @param enabled false: {@code POST /websub/hub} answers 404, the exports still name the hub, nothing is pushed
 * @param minLease the shortest lease granted (a shorter request gets this)
 * @param defaultLease the lease when the subscriber asks none
 * @param maxLease the longest lease granted (a longer request gets this)
 * @param maxPerPerson subscriptions (verified or being verified) of one person's private feeds: the home feed is theirs alone
 * @param maxPerCallbackHost subscriptions (verified or being verified) to public feeds whose callbacks are on one host
 * @param maxSubscriptions all subscriptions of the deployment (then 503): bounds the delivery backlog, one row each
 * @param perHostConcurrency calls (verifications, deliveries) in flight to one callback host, per node
 * @param batch deliveries one node claims at a time
 * @param maxAttempts tries of one content delivery before it is given up (the subscription stays)
 * @param retryBase the wait after a failed delivery, doubled with each further failure
 * @param retryCap the longest wait between tries
 * @param checkInterval how often every topic is checked for changes even without a notice (edits of
 *        items announce nothing; a notice missed while a node restarts is caught up)
 */
@ConfigurationProperties("tributary.hub")
@Validated
record HubSettings(
        @DefaultValue("true") boolean enabled,
        @NotNull @DefaultValue("1h") Duration minLease,
        @NotNull @DefaultValue("10d") Duration defaultLease,
        @NotNull @DefaultValue("30d") Duration maxLease,
        @Min(1) @Max(1_000) @DefaultValue("10") int maxPerPerson,
        @Min(1) @Max(1_000_000) @DefaultValue("1000") int maxPerCallbackHost,
        @Min(1) @Max(10_000_000) @DefaultValue("100000") int maxSubscriptions,
        @Min(1) @Max(256) @DefaultValue("8") int perHostConcurrency,
        @Min(1) @Max(10_000) @DefaultValue("500") int batch,
        @Min(1) @Max(100) @DefaultValue("8") int maxAttempts,
        @NotNull @DefaultValue("10s") Duration retryBase,
        @NotNull @DefaultValue("1h") Duration retryCap,
        @NotNull @DefaultValue("30s") Duration checkInterval) {

    HubSettings {
        if (minLease.isNegative() || minLease.isZero() || defaultLease.compareTo(minLease) < 0
                || maxLease.compareTo(defaultLease) < 0 || maxLease.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("tributary.hub: need 0 < min-lease <= default-lease <= max-lease (< 68 years)");
        }
        if (retryBase.isNegative() || retryBase.isZero() || retryCap.compareTo(retryBase) < 0) {
            throw new IllegalArgumentException("tributary.hub: need 0 < retry-base <= retry-cap");
        }
        if (checkInterval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("tributary.hub.check-interval must be at least 1s");
        }
    }

    /** The lease granted for a request of {@code asked} seconds (null: none asked). */
    long lease(Long asked) {
        if (asked == null) {
            return defaultLease.toSeconds();
        }
        return Math.max(minLease.toSeconds(), Math.min(maxLease.toSeconds(), asked));
    }

    /** The wait before try {@code attempt + 1}, after {@code attempt} failures. */
    Duration backoff(int attempt) {
        Duration wait = retryBase.multipliedBy(1L << Math.min(attempt - 1, 20));
        return wait.compareTo(retryCap) > 0 ? retryCap : wait;
    }
}
