package dev.tributary.api.oauth;

import dev.tributary.api.web.Scope;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.ClientSettings;
import org.springframework.stereotype.Service;

/**
 * Registers third-party apps as OAuth clients. Every app must use PKCE and ask each person's
 * consent, and gets refresh tokens: confidential apps (with a secret, kept only as a hash) and
 * public ones (native and browser apps that cannot keep a secret), whose refresh tokens are
 * single-use ({@link RefreshTokenRotation}).
 */
@Service
class Apps {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final RegisteredClientRepository clients;
    private final PasswordEncoder passwords;
    private final AppTokenSettings tokenSettings;
    private final Clock clock;

    Apps(RegisteredClientRepository clients, PasswordEncoder passwords, AppTokenSettings tokenSettings) {
        this.clients = clients;
        this.passwords = passwords;
        this.tokenSettings = tokenSettings;
        this.clock = Clock.systemUTC();
    }

    /** An app just registered, with its secret (null for a public app): the only time the secret is shown. */
    record RegisteredApp(RegisteredClient client, @Nullable String secret) {
    }

    RegisteredApp register(String name, List<String> redirectUris, Set<Scope> scopes, ClientAuthenticationMethod method) {
        String clientId = random(18);
        boolean confidential = !ClientAuthenticationMethod.NONE.equals(method);
        String secret = confidential ? random(32) : null;
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        RegisteredClient.Builder client = RegisteredClient.withId(clientId).clientId(clientId).clientIdIssuedAt(now)
                .clientName(name)
                .clientAuthenticationMethod(method)
                .authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
                .authorizationGrantType(AuthorizationGrantType.REFRESH_TOKEN)
                .redirectUris(uris -> uris.addAll(redirectUris))
                .scopes(names -> scopes.forEach(s -> names.add(s.wireName())))
                .clientSettings(ClientSettings.builder().requireProofKey(true).requireAuthorizationConsent(true).build())
                .tokenSettings(tokenSettings.current());
        if (confidential) {
            client.clientSecret(passwords.encode(secret));
        }
        RegisteredClient registered = client.build();
        clients.save(registered);
        return new RegisteredApp(registered, secret);
    }

    private static String random(int bytes) {
        byte[] value = new byte[bytes];
        RANDOM.nextBytes(value);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
    }
}
