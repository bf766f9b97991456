package dev.tributary.api.oauth;

import java.net.URI;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the OAuth authorization server ({@code tributary.api.oauth.*}).
 * @param issuer the {@code iss} of tokens and metadata; unset, {@code tributary.public-url}, else the server's local
 *     address, fixed when it starts listening ({@link Issuer})
 * @param accessTokenTtl how long an access token is good for (the API trusts it that long unless revoked)
 * @param refreshTokenTtl how long a refresh token is good for; each use rotates it
 */
@ConfigurationProperties("tributary.api.oauth")
@Validated
record OAuthSettings(
        @Nullable URI issuer,
        @DefaultValue("15m") Duration accessTokenTtl,
        @DefaultValue("30d") Duration refreshTokenTtl) {

    OAuthSettings {
        if (issuer != null && (!issuer.isAbsolute() || issuer.getHost() == null
                || !("https".equals(issuer.getScheme()) || "http".equals(issuer.getScheme()))
                || issuer.getRawQuery() != null || issuer.getRawFragment() != null)) {
            throw new IllegalArgumentException("tributary.api.oauth.issuer must be an absolute http(s) url without query"
                    + " or fragment, not " + issuer);
        }
        if (accessTokenTtl.compareTo(Duration.ofMinutes(1)) < 0 || accessTokenTtl.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("tributary.api.oauth.access-token-ttl must be 1m to 1d, not " + accessTokenTtl);
        }
        if (refreshTokenTtl.compareTo(accessTokenTtl) <= 0) {
            throw new IllegalArgumentException("tributary.api.oauth.refresh-token-ttl must be longer than the access"
                    + " token's, not " + refreshTokenTtl);
        }
    }
}
