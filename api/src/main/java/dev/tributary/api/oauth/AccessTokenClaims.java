package dev.tributary.api.oauth;

import java.util.Set;
import java.util.TreeSet;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;

/**
 * Shapes access tokens as RFC 9068 JWTs: typed {@code at+jwt}, {@code sub} = the person's id (the
 * login's principal name), {@code scope} space-separated, {@code client_id}, and the id of the
 * grant they belong to, so revoking a refresh token can refuse all of its grant's access tokens.
 */
final class AccessTokenClaims implements OAuth2TokenCustomizer<JwtEncodingContext> {

    static final String TYPE = "at+jwt";
    static final String SCOPE = "scope";
    static final String CLIENT_ID = "client_id";
    static final String GRANT_ID = "grant_id";

    @Override
    public void customize(JwtEncodingContext context) {
        if (!OAuth2TokenType.ACCESS_TOKEN.equals(context.getTokenType())) {
            return;
        }
        context.getJwsHeader().type(TYPE);
        Set<String> scopes = new TreeSet<>(context.getAuthorizedScopes());
        context.getClaims().claim(SCOPE, String.join(" ", scopes))
                .claim(CLIENT_ID, context.getRegisteredClient().getClientId());
        if (context.getAuthorization() != null) {
            context.getClaims().claim(GRANT_ID, context.getAuthorization().getId());
        }
    }
}
