package dev.tributary.api.oauth;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.time.Clock;
import dev.tributary.api.security.PublicCors;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.oauth2.server.authorization.OAuth2AuthorizationServerConfigurer;
import org.springframework.security.oauth2.server.authorization.JdbcOAuth2AuthorizationConsentService;
import org.springframework.security.oauth2.server.authorization.JdbcOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationConsentService;
import org.springframework.security.oauth2.core.OAuth2Token;
import org.springframework.security.oauth2.jwt.NimbusJwtEncoder;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2RefreshTokenAuthenticationProvider;
import org.springframework.security.oauth2.server.authorization.client.JdbcRegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.oauth2.server.authorization.settings.AuthorizationServerSettings;
import org.springframework.security.oauth2.server.authorization.token.DelegatingOAuth2TokenGenerator;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.JwtGenerator;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenGenerator;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.header.HeaderWriterFilter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The OAuth 2.1 authorization server: authorization code with PKCE, refresh (rotated, with reuse
 * detection: {@link RefreshTokenRotation}) and revocation, and metadata, with apps, grants and
 * consents in MariaDB and access tokens signed by the keys in {@code signing_keys}, whose private
 * parts are encrypted with a key kept outside the database ({@link KeyEncryptionKey}). A person signs
 * in through the site's login form and consents on {@code /oauth2/consent}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({OAuthSettings.class, SecretsSettings.class})
class AuthorizationServerConfiguration {

    static final String CONSENT_PAGE = "/oauth2/consent";

    @Bean
    @Order(1)
    SecurityFilterChain authorizationServerSecurity(HttpSecurity http, AuthorizationServerSettings settings,
            RegisteredClientRepository clients, OAuth2AuthorizationService authorizations, RetiredRefreshTokens retired,
            PlatformTransactionManager transactionManager, JdbcClient jdbc, Issuer issuer) {
        OAuth2AuthorizationServerConfigurer server = new OAuth2AuthorizationServerConfigurer();
        IssuerInAuthorizationResponse issuerInResponse = new IssuerInAuthorizationResponse();
        TransactionTemplate transactions = new TransactionTemplate(transactionManager);
        transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        http.securityMatcher(server.getEndpointsMatcher())
                // After Spring's context filter (right after SecurityContextHolderFilter), before the endpoints.
                .addFilterAfter(issuer.contextFilter(), HeaderWriterFilter.class)
                .with(server, as -> as
                        .authorizationEndpoint(endpoint -> endpoint.consentPage(CONSENT_PAGE)
                                .authorizationResponseHandler(issuerInResponse).errorResponseHandler(issuerInResponse))
                        .tokenEndpoint(endpoint -> endpoint.authenticationProviders(providers ->
                                withRotation(providers, authorizations, retired, transactions, jdbc)))
                        .authorizationServerMetadataEndpoint(metadata -> metadata
                                .authorizationServerMetadataCustomizer(AdvertisedMetadata::customize))
                        .clientAuthentication(clientAuthentication -> clientAuthentication
                                .authenticationConverter(new PublicClientAuthentication.Converter(
                                        settings.getTokenRevocationEndpoint(), settings.getTokenEndpoint()))
                                .authenticationProvider(new PublicClientAuthentication.Provider(clients))))
                .authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                // Public clients in a browser discover, exchange, refresh and revoke from their own origin.
                .cors(cors -> cors.configurationSource(PublicCors.source()))
                // A browser sent to authorize an app without a session signs in first, then comes back.
                .exceptionHandling(errors -> errors.defaultAuthenticationEntryPointFor(
                        new LoginUrlAuthenticationEntryPoint("/login"),
                        PathPatternRequestMatcher.withDefaults().matcher(settings.getAuthorizationEndpoint()))
                        .defaultAuthenticationEntryPointFor(new ClientAuthenticationRequired(), new OrRequestMatcher(
                                PathPatternRequestMatcher.withDefaults().matcher(settings.getTokenEndpoint()),
                                PathPatternRequestMatcher.withDefaults().matcher(settings.getTokenRevocationEndpoint()),
                                PathPatternRequestMatcher.withDefaults().matcher(settings.getTokenIntrospectionEndpoint()))));
        return http.build();
    }

    /** Wraps Spring's refresh grant in {@link RefreshTokenRotation}; fails at start-up if Spring's is not there. */
    private static void withRotation(List<AuthenticationProvider> providers, OAuth2AuthorizationService authorizations,
            RetiredRefreshTokens retired, TransactionTemplate transactions, JdbcClient jdbc) {
        int refresh = -1;
        for (int i = 0; i < providers.size(); i++) {
            if (providers.get(i) instanceof OAuth2RefreshTokenAuthenticationProvider) {
                refresh = i;
            }
        }
        if (refresh < 0) {
            throw new IllegalStateException("Spring's OAuth2RefreshTokenAuthenticationProvider was not found to wrap");
        }
        providers.set(refresh, new RefreshTokenRotation(providers.get(refresh), authorizations, retired, transactions,
                jdbc));
    }

    @Bean
    AuthorizationServerSettings authorizationServerSettings(Issuer issuer) {
        AuthorizationServerSettings.Builder settings = AuthorizationServerSettings.builder();
        issuer.configured().ifPresent(settings::issuer);
        return settings.build();
    }

    /** Fails start-up when the key is malformed or readable by others. */
    @Bean
    KeyEncryptionKey keyEncryptionKey(SecretsSettings settings, Environment environment) {
        return KeyEncryptionKey.load(environment.getProperty(KeyEncryptionKey.ENVIRONMENT_VARIABLE), settings.keyFile());
    }

    @Bean
    SealedSecrets sealedSecrets(KeyEncryptionKey keyEncryptionKey) {
        return new SealedSecrets(keyEncryptionKey);
    }

    /** Fails start-up when a stored key does not open with {@code keyEncryptionKey}. */
    @Bean
    SigningKeyRing accessTokenSigningKeys(JdbcClient jdbc, KeyEncryptionKey keyEncryptionKey, OAuthSettings settings) {
        return new SigningKeyRing(new SigningKeys(jdbc, keyEncryptionKey, Clock.systemUTC()), SigningKeys.ACCESS_TOKENS,
                settings.accessTokenTtl(), Clock.systemUTC());
    }

    /** The public keys tokens may carry: what {@code /oauth2/jwks} publishes. */
    @Bean
    JWKSource<SecurityContext> jwkSource(SigningKeyRing accessTokenSigningKeys) {
        return accessTokenSigningKeys.verifyingSource();
    }

    @Bean
    OAuth2TokenCustomizer<JwtEncodingContext> accessTokenClaims() {
        return new AccessTokenClaims();
    }

    /** Signed JWT access tokens, and refresh tokens for public apps too ({@link AppRefreshTokens}). */
    @Bean
    OAuth2TokenGenerator<OAuth2Token> tokenGenerator(SigningKeyRing accessTokenSigningKeys,
            OAuth2TokenCustomizer<JwtEncodingContext> accessTokenClaims) {
        JwtGenerator accessTokens = new JwtGenerator(new NimbusJwtEncoder(accessTokenSigningKeys.signingSource()));
        accessTokens.setJwtCustomizer(accessTokenClaims);
        return new DelegatingOAuth2TokenGenerator(accessTokens, new AppRefreshTokens(Clock.systemUTC()));
    }

    @Bean
    AccessTokenAuthenticator accessTokenAuthenticator(JWKSource<SecurityContext> jwkSource, Issuer issuer,
            RevokedTokens revoked) {
        return new AccessTokenAuthenticator(jwkSource, issuer, revoked);
    }

    @Bean
    RegisteredClientRepository registeredClientRepository(JdbcTemplate jdbc, AppTokenSettings tokenSettings) {
        return tokenSettings.applyTo(new JdbcRegisteredClientRepository(jdbc));
    }

    @Bean
    OAuth2AuthorizationService authorizationService(JdbcTemplate jdbc, RegisteredClientRepository clients,
            RevokedTokens revoked, OAuthSettings settings) {
        return new DenyListingAuthorizationService(
                new HashedTokensAuthorizationService(new JdbcOAuth2AuthorizationService(jdbc, clients)), revoked,
                settings, Clock.systemUTC());
    }

    @Bean
    OAuth2AuthorizationConsentService authorizationConsentService(JdbcTemplate jdbc, RegisteredClientRepository clients) {
        return new JdbcOAuth2AuthorizationConsentService(jdbc, clients);
    }
}
