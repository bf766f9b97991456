package dev.tributary.api.oauth;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;

/**
 * The authorization server's grant store, which also tells the API what was revoked. The API
 * checks access tokens by signature without reading this store, so each invalidation the server
 * records (revocation, a reused code, a withdrawn grant) is copied to {@link RevokedTokens}
 * before it is stored: an access token revoked alone is refused by its id; a dead refresh token
 * takes down every access token of its grant, older ones from before a refresh included.
 */
final class DenyListingAuthorizationService implements OAuth2AuthorizationService {

    private final OAuth2AuthorizationService store;
    private final RevokedTokens revoked;
    private final OAuthSettings settings;
    private final Clock clock;

    DenyListingAuthorizationService(OAuth2AuthorizationService store, RevokedTokens revoked, OAuthSettings settings,
            Clock clock) {
        this.store = store;
        this.revoked = revoked;
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void save(OAuth2Authorization authorization) {
        OAuth2Authorization.Token<OAuth2RefreshToken> refresh = authorization.getRefreshToken();
        OAuth2Authorization.Token<OAuth2AccessToken> access = authorization.getAccessToken();
        if (refresh != null && refresh.isInvalidated()) {
            revokeGrant(authorization);
        } else if (access != null && access.isInvalidated()) {
            Object tokenId = claims(access).get("jti");
            if (tokenId == null) {
                revokeGrant(authorization);
            } else {
                revoked.revokeToken(authorization.getPrincipalName(), tokenId.toString(), expiry(access));
            }
        }
        store.save(authorization);
    }

    @Override
    public void remove(OAuth2Authorization authorization) {
        revokeGrant(authorization);
        store.remove(authorization);
    }

    @Override
    public @Nullable OAuth2Authorization findById(String id) {
        return store.findById(id);
    }

    @Override
    public @Nullable OAuth2Authorization findByToken(String token, @Nullable OAuth2TokenType tokenType) {
        return store.findByToken(token, tokenType);
    }

    private void revokeGrant(OAuth2Authorization authorization) {
        // Every access token of the grant expires within one TTL of now (or of the current one's expiry).
        Instant latest = clock.instant().plus(settings.accessTokenTtl());
        OAuth2Authorization.Token<OAuth2AccessToken> access = authorization.getAccessToken();
        if (access != null && expiry(access).isAfter(latest)) {
            latest = expiry(access);
        }
        revoked.revokeGrant(authorization.getPrincipalName(), authorization.getId(), latest);
    }

    private static Map<String, Object> claims(OAuth2Authorization.Token<OAuth2AccessToken> token) {
        Map<String, Object> claims = token.getClaims();
        return claims == null ? Map.of() : claims;
    }

    private Instant expiry(OAuth2Authorization.Token<OAuth2AccessToken> token) {
        Instant expiresAt = token.getToken().getExpiresAt();
        return expiresAt == null ? clock.instant().plus(settings.accessTokenTtl()) : expiresAt;
    }
}
