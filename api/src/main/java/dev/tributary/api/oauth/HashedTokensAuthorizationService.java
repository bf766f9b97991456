package dev.tributary.api.oauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationCode;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;

/**
 * Keeps the grants' codes, access tokens and refresh tokens in {@code oauth2_authorization} as
 * {@value #PREFIX}-prefixed SHA-256 hex of their values, as personal tokens are kept: whoever reads
 * the table (a backup, a replica) holds nothing to present. Spring answers a client with the
 * tokens it just made, never with what it read back, so the clear values are needed only to look
 * a grant up: {@link #findByToken} hashes the presented value, and gives back the grant with that
 * one token's clear value in place of its hash (revocation and introspection find the token in the
 * grant by value). Values already hashed pass through {@link #save} unchanged: they are what the
 * grant read back. Token values never start with {@value #PREFIX} (JWTs, base64url codes and
 * refresh tokens), and a presented value that does is hashed like any other, so matches nothing.
 */
final class HashedTokensAuthorizationService implements OAuth2AuthorizationService {

    static final String PREFIX = "sha256:";

    private final OAuth2AuthorizationService store;

    HashedTokensAuthorizationService(OAuth2AuthorizationService store) {
        this.store = store;
    }

    @Override
    public void save(OAuth2Authorization authorization) {
        store.save(rewrite(authorization, value -> value.startsWith(PREFIX) ? value : hash(value)));
    }

    @Override
    public void remove(OAuth2Authorization authorization) {
        store.remove(authorization);
    }

    @Override
    public @Nullable OAuth2Authorization findById(String id) {
        return store.findById(id);
    }

    @Override
    public @Nullable OAuth2Authorization findByToken(String token, @Nullable OAuth2TokenType tokenType) {
        // The consent step's state is no credential (it works only in the session that started the request).
        if (tokenType != null && OAuth2ParameterNames.STATE.equals(tokenType.getValue())) {
            return store.findByToken(token, tokenType);
        }
        String hashed = hash(token);
        OAuth2Authorization found = store.findByToken(hashed, tokenType);
        if (found == null && tokenType == null) {
            return store.findByToken(token, new OAuth2TokenType(OAuth2ParameterNames.STATE));
        }
        return found == null ? null : rewrite(found, value -> value.equals(hashed) ? token : value);
    }

    /** {@code PREFIX} and the SHA-256 of {@code value} in hex. */
    static String hash(String value) {
        try {
            return PREFIX + HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** The grant with each of its code, access and refresh token values mapped, metadata kept. */
    private static OAuth2Authorization rewrite(OAuth2Authorization authorization, Function<String, String> values) {
        OAuth2Authorization.Builder builder = OAuth2Authorization.from(authorization);
        boolean changed = false;
        OAuth2Authorization.Token<OAuth2AuthorizationCode> code = authorization.getToken(OAuth2AuthorizationCode.class);
        if (code != null && changes(code.getToken(), values)) {
            OAuth2AuthorizationCode t = code.getToken();
            builder.token(new OAuth2AuthorizationCode(values.apply(t.getTokenValue()), t.getIssuedAt(), t.getExpiresAt()),
                    metadata -> metadata.putAll(code.getMetadata()));
            changed = true;
        }
        OAuth2Authorization.Token<OAuth2AccessToken> access = authorization.getAccessToken();
        if (access != null && changes(access.getToken(), values)) {
            OAuth2AccessToken t = access.getToken();
            builder.token(new OAuth2AccessToken(t.getTokenType(), values.apply(t.getTokenValue()), t.getIssuedAt(),
                    t.getExpiresAt(), t.getScopes()), metadata -> metadata.putAll(access.getMetadata()));
            changed = true;
        }
        OAuth2Authorization.Token<OAuth2RefreshToken> refresh = authorization.getRefreshToken();
        if (refresh != null && changes(refresh.getToken(), values)) {
            OAuth2RefreshToken t = refresh.getToken();
            builder.token(new OAuth2RefreshToken(values.apply(t.getTokenValue()), t.getIssuedAt(), t.getExpiresAt()),
                    metadata -> metadata.putAll(refresh.getMetadata()));
            changed = true;
        }
        return changed ? builder.build() : authorization;
    }

    private static boolean changes(OAuth2Token token, Function<String, String> values) {
        return !Objects.equals(values.apply(token.getTokenValue()), token.getTokenValue());
    }
}
