package dev.tributary.api.oauth;

import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.OAuth2TokenFormat;
import org.springframework.security.oauth2.server.authorization.settings.TokenSettings;
import org.springframework.stereotype.Component;

/**
 * The token settings every app gets, from {@link OAuthSettings}. Apps are stored with the
 * settings of their registration day; {@link #applyTo} lays today's over them when an app is read,
 * so changing a TTL applies to every app at the next restart, not only to new ones. Every app may
 * refresh, public apps registered before they could included.
 */
@Component
class AppTokenSettings {

    private final TokenSettings settings;

    AppTokenSettings(OAuthSettings oauth) {
        this.settings = TokenSettings.builder()
                .accessTokenFormat(OAuth2TokenFormat.SELF_CONTAINED)
                .accessTokenTimeToLive(oauth.accessTokenTtl())
                .refreshTokenTimeToLive(oauth.refreshTokenTtl())
                .reuseRefreshTokens(false)
                .authorizationCodeTimeToLive(java.time.Duration.ofMinutes(5))
                .build();
    }

    TokenSettings current() {
        return settings;
    }

    /** A repository whose apps carry today's token settings. */
    RegisteredClientRepository applyTo(RegisteredClientRepository stored) {
        return new RegisteredClientRepository() {
            @Override
            public void save(RegisteredClient client) {
                stored.save(client);
            }

            @Override
            public RegisteredClient findById(String id) {
                return withCurrent(stored.findById(id));
            }

            @Override
            public RegisteredClient findByClientId(String clientId) {
                return withCurrent(stored.findByClientId(clientId));
            }
        };
    }

    private RegisteredClient withCurrent(RegisteredClient client) {
        return client == null ? null : RegisteredClient.from(client).tokenSettings(settings)
                .authorizationGrantType(AuthorizationGrantType.REFRESH_TOKEN).build();
    }
}
