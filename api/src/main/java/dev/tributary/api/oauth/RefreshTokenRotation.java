package dev.tributary.api.oauth;

import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2RefreshTokenAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The refresh grant with single-use refresh tokens. Spring's provider (the delegate) rotates the
 * token; around it, the token it replaces is retired ({@link RetiredRefreshTokens}) in the same
 * transaction, so of two refreshes with one token exactly one commits. A retired token presented
 * again by a public app's client id is reuse: someone kept a copy (a thief, or the app after the
 * thief refreshed first), and since nothing tells the two apart the whole grant is revoked, its
 * current refresh token and every access token (OAuth 2.1 §4.3.1, RFC 9700 §4.14.2). The loser
 * of a race is reuse too: the app must refresh one request at a time. Confidential apps, whose
 * tokens are useless without the secret, get {@code invalid_grant} and keep their grant.
 */
final class RefreshTokenRotation implements AuthenticationProvider {

    private static final Logger log = LoggerFactory.getLogger(RefreshTokenRotation.class);

    private final AuthenticationProvider rotation;
    private final OAuth2AuthorizationService authorizations;
    private final RetiredRefreshTokens retired;
    private final TransactionTemplate transactions;
    private final JdbcClient jdbc;

    /**
     * {@code transactions} must be READ COMMITTED: what Spring's provider reads after the grant's
     * row is locked has to be the row as the last writer committed it.
     */
    RefreshTokenRotation(AuthenticationProvider rotation, OAuth2AuthorizationService authorizations,
            RetiredRefreshTokens retired, TransactionTemplate transactions, JdbcClient jdbc) {
        this.rotation = rotation;
        this.authorizations = authorizations;
        this.retired = retired;
        this.transactions = transactions;
        this.jdbc = jdbc;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        OAuth2RefreshTokenAuthenticationToken request = (OAuth2RefreshTokenAuthenticationToken) authentication;
        RegisteredClient client = client(request);
        String token = request.getRefreshToken();
        if (token.length() > AppRefreshTokens.MAX_LENGTH) {
            throw invalidGrant();
        }
        Authentication rotated;
        try {
            rotated = transactions.execute(status -> rotate(request, client, token));
        } catch (DuplicateKeyException raced) {
            rotated = null;
        }
        if (rotated != null) {
            return rotated;
        }
        retired.find(token).filter(grant -> grant.clientId().equals(client.getId()))
                .filter(grant -> client.getClientAuthenticationMethods().contains(ClientAuthenticationMethod.NONE))
                .ifPresent(this::revoke);
        throw invalidGrant();
    }

    /** Retires the presented token and rotates it; null if it is no current refresh token of this client. */
    private @Nullable Authentication rotate(OAuth2RefreshTokenAuthenticationToken request, RegisteredClient client,
            String token) {
        OAuth2Authorization grant = authorizations.findByToken(token, OAuth2TokenType.REFRESH_TOKEN);
        if (grant == null || !grant.getRegisteredClientId().equals(client.getId()) || !locked(grant.getId())) {
            return null;
        }
        OAuth2Authorization.Token<OAuth2RefreshToken> current = grant.getRefreshToken();
        Instant expiresAt = current == null ? null : current.getToken().getExpiresAt();
        if (current == null || !current.isActive() || expiresAt == null) {
            return null;
        }
        retired.retire(token, new RetiredRefreshTokens.Retired(grant.getId(), grant.getRegisteredClientId(),
                grant.getPrincipalName()), expiresAt);
        return rotation.authenticate(request);
    }

    /**
     * Holds the grant's row until the rotation commits, so a revocation or a withdrawal of the app
     * meanwhile waits and then applies to the new tokens (Spring's save would otherwise write the
     * grant back over it); false if it was removed since it was read.
     */
    private boolean locked(String grantId) {
        return jdbc.sql("SELECT id FROM oauth2_authorization WHERE id = :id FOR UPDATE").param("id", grantId)
                .query(String.class).optional().isPresent();
    }

    /** Removes the grant: its refresh token stops working and its access tokens are refused on every node. */
    private void revoke(RetiredRefreshTokens.Retired reused) {
        OAuth2Authorization grant = authorizations.findById(reused.grantId());
        log.warn("A retired refresh token of grant {} (client {}, person {}) was presented again: grant {}",
                reused.grantId(), reused.clientId(), reused.subject(),
                grant == null ? "already gone" : "revoked");
        if (grant != null) {
            authorizations.remove(grant);
        }
    }

    private static RegisteredClient client(OAuth2RefreshTokenAuthenticationToken request) {
        if (request.getPrincipal() instanceof OAuth2ClientAuthenticationToken client && client.isAuthenticated()
                && client.getRegisteredClient() != null) {
            return client.getRegisteredClient();
        }
        throw new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_CLIENT);
    }

    private static OAuth2AuthenticationException invalidGrant() {
        return new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_GRANT);
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return OAuth2RefreshTokenAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
