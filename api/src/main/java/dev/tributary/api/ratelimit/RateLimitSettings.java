package dev.tributary.api.ratelimit;

import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Request limits ({@code tributary.api.rate-limit.*}), counted in Redis so that every node shares
 * them. Each budget is its own bucket, so one kind of traffic cannot use up another's: hubs
 * pushing to the WebSub callback do not starve browsers, nor an app refreshing tokens sign-ins.
 * @param enabled whether requests are counted at all
 * @param requests API requests (REST, Fever, Google Reader) one person may make per window, with all their credentials
 *        together (sessions, personal tokens, apps' tokens, Fever keys, Reader Auth values)
 * @param window the length of a window, which starts at a bucket's first request
 * @param anonymousRequests API requests per window from one client address without a valid credential
 *        (the open endpoints, and every request refused for want of one: a made-up token, Fever key or Auth value)
 * @param pageRequests web front end pages (and the API reference) per window, per signed-in person or else per client address
 * @param feedRequests RSS, Atom and OPML exports ({@code /feeds/**}) per window from one client address
 * @param signInRequests sign-in requests per window from one client address: the form ({@code /login}, GET and
 *        POST), sign-out, the OAuth authorisation and consent pages and Google Reader's {@code /accounts/ClientLogin}
 * @param oauthRequests the OAuth endpoints apps call from their servers ({@code /oauth2/token}, {@code /oauth2/revoke},
 *        {@code /oauth2/jwks}, the metadata) per window from one client address
 * @param websubRequests WebSub hub callbacks ({@code /websub/**}: intent checks and pushes) per window from one client address
 */
@ConfigurationProperties("tributary.api.rate-limit")
@Validated
public record RateLimitSettings(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("300") @Min(1) int requests,
        @DefaultValue("5m") Duration window,
        @DefaultValue("30") @Min(1) int anonymousRequests,
        @DefaultValue("300") @Min(1) int pageRequests,
        @DefaultValue("300") @Min(1) int feedRequests,
        @DefaultValue("60") @Min(1) int signInRequests,
        @DefaultValue("300") @Min(1) int oauthRequests,
        @DefaultValue("600") @Min(1) int websubRequests) {

    public RateLimitSettings {
        if (window.toMillis() < 1000) {
            throw new IllegalArgumentException("tributary.api.rate-limit.window must be at least 1s, not " + window);
        }
    }
}
