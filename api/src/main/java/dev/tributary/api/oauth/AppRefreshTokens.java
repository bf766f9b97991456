package dev.tributary.api.oauth;

import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import org.jspecify.annotations.Nullable;
import org.springframework.security.crypto.keygen.Base64StringKeyGenerator;
import org.springframework.security.crypto.keygen.StringKeyGenerator;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;

/**
 * Refresh tokens for every app registered for the refresh grant, public ones included. Spring's
 * generator refuses public clients at the code exchange; OAuth 2.1 (§4.3.1) lets them have one
 * when it is rotated, which {@link RefreshTokenRotation} does, with reuse detection. The value is
 * 96 random bytes, base64url: 128 characters.
 */
final class AppRefreshTokens implements OAuth2TokenGenerator<OAuth2RefreshToken> {

    /** Longer than any value this class issues; a longer one presented is not ours. */
    static final int MAX_LENGTH = 512;

    private final StringKeyGenerator values = new Base64StringKeyGenerator(Base64.getUrlEncoder().withoutPadding(), 96);
    private final Clock clock;

    AppRefreshTokens(Clock clock) {
        this.clock = clock;
    }

    @Override
    public @Nullable OAuth2RefreshToken generate(OAuth2TokenContext context) {
        if (!OAuth2TokenType.REFRESH_TOKEN.equals(context.getTokenType())) {
            return null;
        }
        Instant issuedAt = clock.instant();
        return new OAuth2RefreshToken(values.generateKey(), issuedAt,
                issuedAt.plus(context.getRegisteredClient().getTokenSettings().getRefreshTokenTimeToLive()));
    }
}
