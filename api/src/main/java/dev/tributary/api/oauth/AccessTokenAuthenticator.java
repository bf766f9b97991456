package dev.tributary.api.oauth;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import dev.tributary.api.security.BearerTokenAuthenticator;
import dev.tributary.api.security.Revocations;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Credential;
import dev.tributary.api.web.Scope;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.JwtTypeValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * Accepts the authorization server's access tokens on the API: JWTs signed with a key of the
 * persisted ring ({@link SigningKeyRing}, picked by the token's {@code kid}), typed
 * {@code at+jwt}, unexpired, from this issuer, and not revoked (one Redis round trip; no
 * database read). The caller is the token's {@code sub}, with the scopes of its {@code scope}.
 */
final class AccessTokenAuthenticator implements BearerTokenAuthenticator {

    /** Three base64url parts: a compact JWS. */
    private static final Pattern JWT_SHAPE = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");

    private final JwtDecoder decoder;
    private final Issuer issuer;
    private final RevokedTokens revoked;

    AccessTokenAuthenticator(JWKSource<SecurityContext> keys, Issuer issuer, RevokedTokens revoked) {
        this.decoder = decoder(keys);
        this.issuer = issuer;
        this.revoked = revoked;
    }

    /** A decoder that checks what every access token must satisfy but the issuer, checked by the caller. */
    static JwtDecoder decoder(JWKSource<SecurityContext> keys) {
        // Nimbus's own type check knows only "JWT"; JwtTypeValidator checks at+jwt instead.
        NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSource(keys).jwsAlgorithm(SignatureAlgorithm.RS256)
                .jwtProcessorCustomizer(processor -> processor.setJWSTypeVerifier((type, context) -> { }))
                .build();
        decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(new JwtTimestampValidator(),
                new JwtTypeValidator(AccessTokenClaims.TYPE)));
        return decoder;
    }

    @Override
    public boolean supports(String token) {
        return JWT_SHAPE.matcher(token).matches();
    }

    @Override
    public Optional<Caller> authenticate(String token) {
        Jwt jwt;
        try {
            jwt = decoder.decode(token);
        } catch (JwtException invalid) {
            return Optional.empty();
        }
        String subject = jwt.getSubject();
        String tokenId = jwt.getId();
        String grantId = jwt.getClaimAsString(AccessTokenClaims.GRANT_ID);
        if (subject == null || tokenId == null || grantId == null || jwt.getIssuer() == null
                || !issuer.current().equals(jwt.getIssuer().toString())) {
            return Optional.empty();
        }
        long userId;
        try {
            userId = Long.parseLong(subject);
        } catch (NumberFormatException notAPerson) {
            return Optional.empty();
        }
        if (userId <= 0 || revoked.isRevoked(subject, tokenId, grantId)) {
            return Optional.empty();
        }
        Credential app = new Credential(Credential.Kind.APP,
                Set.of(Revocations.grantKey(grantId), Revocations.accessTokenKey(tokenId)));
        return Optional.of(new Caller(userId, scopes(jwt.getClaim(AccessTokenClaims.SCOPE)), app));
    }

    /**
     * RFC 9068's space-separated string; a list is read too. Unknown scopes grant nothing, and
     * neither does {@code account}, which no app is granted (a token naming it was not ours to issue).
     */
    private static Set<Scope> scopes(Object claim) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        Collection<?> names = claim instanceof Collection<?> list ? list
                : claim instanceof String text ? Arrays.asList(text.split(" ")) : Set.of();
        names.forEach(name -> Scope.parseForApp(String.valueOf(name)).ifPresent(scopes::add));
        return scopes;
    }
}
