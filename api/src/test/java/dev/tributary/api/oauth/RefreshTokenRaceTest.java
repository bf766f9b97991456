package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.OAuthFlow.App;
import dev.tributary.api.testing.OAuthFlow.Tokens;
import dev.tributary.api.testing.TestUser;
import dev.tributary.storage.testing.Await;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2RefreshTokenAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The race the HTTP test cannot force: a second refresh with a token whose first refresh has not
 * committed yet waits on the retired row, then is refused as reuse and revokes the grant.
 */
@ApiTest
class RefreshTokenRaceTest {

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;
    @Autowired OAuth2AuthorizationService authorizations;
    @Autowired RegisteredClientRepository clients;
    @Autowired RetiredRefreshTokens retired;
    @Autowired PlatformTransactionManager transactionManager;

    @Test
    void theSecondOfTwoOverlappingRefreshesWaitsForTheFirstThenRevokesTheGrant() throws Exception {
        OAuthFlow flow = new OAuthFlow(port);
        TestUser ida = flow.api().newUser("race");
        App app = flow.registerApp("none", "read");
        Tokens tokens = flow.authorize(ida, app, "read");
        OAuth2Authorization grant = authorizations.findByToken(tokens.refreshToken(), OAuth2TokenType.REFRESH_TOKEN);
        assertThat(grant).isNotNull();

        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AuthenticationProvider slowRotation = new AuthenticationProvider() {
            @Override
            public Authentication authenticate(Authentication authentication) {
                inside.countDown();
                try {
                    assertThat(release.await(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                return authentication;
            }

            @Override
            public boolean supports(Class<?> authentication) {
                return true;
            }
        };
        RefreshTokenRotation rotation = new RefreshTokenRotation(slowRotation, authorizations, retired,
                new TransactionTemplate(transactionManager));
        OAuth2ClientAuthenticationToken client = new OAuth2ClientAuthenticationToken(
                clients.findByClientId(app.clientId()), ClientAuthenticationMethod.NONE, null);
        OAuth2RefreshTokenAuthenticationToken request = new OAuth2RefreshTokenAuthenticationToken(tokens.refreshToken(),
                client, Set.of(), Map.of());

        try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
            Future<Authentication> first = threads.submit(() -> rotation.authenticate(request));
            assertThat(inside.await(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("first refresh rotating").isTrue();
            Future<Authentication> second = threads.submit(() -> rotation.authenticate(request));
            Await.until("the second refresh waits on the first one's retired row", () -> jdbc.sql(
                    "SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")
                    .query(Integer.class).single() > 0);
            release.countDown();

            assertThat(first.get(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS)).isSameAs(request);
            assertThatThrownBy(() -> second.get(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .hasCauseInstanceOf(OAuth2AuthenticationException.class)
                    .cause().extracting(e -> ((OAuth2AuthenticationException) e).getError().getErrorCode())
                    .isEqualTo("invalid_grant");
        }
        assertThat(authorizations.findById(grant.getId())).as("the grant is revoked").isNull();
        assertThat(flow.api().get("/api/v1/me", tokens.accessToken()).status()).isEqualTo(401);
    }
}
