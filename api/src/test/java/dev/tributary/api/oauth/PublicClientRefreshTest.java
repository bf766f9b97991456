package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.OAuthFlow.App;
import dev.tributary.api.testing.OAuthFlow.Tokens;
import dev.tributary.api.testing.TestUser;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Refresh tokens for public apps (no secret) over HTTP: issued with the code, single-use, and a
 * rotated-away one presented again revokes the whole grant; client checks and hostile values.
 */
@ApiTest
class PublicClientRefreshTest {

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;
    @Autowired RetiredRefreshTokens retired;
    private OAuthFlow flow;
    private ApiClient api;

    @BeforeEach
    void client() {
        flow = new OAuthFlow(port);
        api = flow.api();
    }

    @Test
    void aPublicAppGetsARefreshTokenThatRotatesOnEachUse() {
        TestUser ann = api.newUser("pr");
        App app = flow.registerApp("none", "read");

        Tokens first = flow.authorize(ann, app, "read");
        assertThat(first.refreshToken()).as("a public app gets a refresh token with the code").isNotBlank();
        Tokens second = Tokens.of(flow.refresh(app, first.refreshToken()));
        Tokens third = Tokens.of(flow.refresh(app, second.refreshToken()));

        assertThat(second.refreshToken()).isNotBlank().isNotEqualTo(first.refreshToken());
        assertThat(third.refreshToken()).isNotBlank().isNotIn(first.refreshToken(), second.refreshToken());
        assertThat(third.scope()).isEqualTo("read");
        ApiResponse me = api.get("/api/v1/me", third.accessToken());
        assertThat(me.status()).as(me.toString()).isEqualTo(200);
        assertThat(me.json().path("id").asString()).isEqualTo(ann.id());
    }

    @Test
    void aRotatedTokenPresentedAgainIsRefusedAndRevokesTheWholeGrant() {
        TestUser bea = api.newUser("pr");
        App app = flow.registerApp("none", "read");
        Tokens first = flow.authorize(bea, app, "read");
        Tokens current = Tokens.of(flow.refresh(app, first.refreshToken()));
        assertThat(api.get("/api/v1/me", current.accessToken()).status()).isEqualTo(200);

        ApiResponse reuse = flow.refresh(app, first.refreshToken());

        assertThat(reuse.status()).as(reuse.toString()).isEqualTo(400);
        assertThat(reuse.json().path("error").asString()).isEqualTo("invalid_grant");
        assertThat(flow.refresh(app, current.refreshToken()).status()).as("the current refresh token").isEqualTo(400);
        ApiResponse me = api.get("/api/v1/me", current.accessToken());
        assertThat(me.status()).as("the current access token").isEqualTo(401);
        assertThat(me.header("WWW-Authenticate")).contains("invalid_token");
        assertThat(api.get("/api/v1/me", first.accessToken()).status()).as("issued before the refresh").isEqualTo(401);
        assertThat(flow.refresh(app, first.refreshToken()).status()).as("reuse again, grant gone").isEqualTo(400);
    }

    @Test
    void ofTwoRefreshesRacingWithOneTokenExactlyOneSucceedsAndTheOtherIsReuse() throws Exception {
        TestUser cid = api.newUser("pr");
        App app = flow.registerApp("none", "read");
        try (ExecutorService threads = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 5; round++) {
                Tokens tokens = flow.authorize(cid, app, "read");
                CountDownLatch start = new CountDownLatch(1);
                List<Future<ApiResponse>> racing = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    racing.add(threads.submit(() -> {
                        start.await();
                        return flow.refresh(app, tokens.refreshToken());
                    }));
                }
                start.countDown();
                List<ApiResponse> answers = new ArrayList<>();
                for (Future<ApiResponse> answer : racing) {
                    answers.add(answer.get());
                }

                assertThat(answers).extracting(ApiResponse::status).as(answers.toString()).containsExactlyInAnyOrder(200, 400);
                ApiResponse won = answers.stream().filter(a -> a.status() == 200).findFirst().orElseThrow();
                ApiResponse lost = answers.stream().filter(a -> a.status() == 400).findFirst().orElseThrow();
                assertThat(lost.json().path("error").asString()).isEqualTo("invalid_grant");
                Tokens winner = Tokens.of(won);
                // The loser presented a spent token: the grant is revoked, the winner's tokens with it.
                assertThat(flow.refresh(app, winner.refreshToken()).status()).isEqualTo(400);
                assertThat(api.get("/api/v1/me", winner.accessToken()).status()).isEqualTo(401);
            }
        }
    }

    @Test
    void aConfidentialAppStillNeedsItsSecretToRefresh() {
        TestUser dot = api.newUser("pr");
        App app = flow.registerApp("client_secret_basic", "read");
        Tokens tokens = flow.authorize(dot, app, "read");

        ApiResponse withoutSecret = flow.refresh(new App(app.clientId(), null, app.redirectUri(), "none"),
                tokens.refreshToken());
        ApiResponse wrongSecret = flow.refresh(new App(app.clientId(), "not-the-secret", app.redirectUri(),
                "client_secret_post"), tokens.refreshToken());

        assertThat(withoutSecret.status()).as(withoutSecret.toString()).isEqualTo(401);
        assertThat(withoutSecret.json().path("error").asString()).isEqualTo("invalid_client");
        assertThat(wrongSecret.status()).isEqualTo(401);
        assertThat(Tokens.of(flow.refresh(app, tokens.refreshToken())).refreshToken()).isNotBlank();
    }

    @Test
    void aPublicAppsTokenIsRefusedToAnyOtherClientAndStaysGood() {
        TestUser eve = api.newUser("pr");
        App app = flow.registerApp("none", "read");
        App otherPublic = flow.registerApp("none", "read");
        App confidential = flow.registerApp("client_secret_basic", "read");
        Tokens tokens = flow.authorize(eve, app, "read");

        ApiResponse otherClientId = flow.refresh(otherPublic, tokens.refreshToken());
        ApiResponse otherClientsSecret = flow.refresh(confidential, tokens.refreshToken());
        ApiResponse ownIdWithASecret = flow.refresh(new App(app.clientId(), "made-up", app.redirectUri(),
                "client_secret_basic"), tokens.refreshToken());
        ApiResponse ownIdInTheFormWithASecret = flow.refresh(new App(app.clientId(), "made-up", app.redirectUri(),
                "client_secret_post"), tokens.refreshToken());

        assertThat(otherClientId.status()).as(otherClientId.toString()).isEqualTo(400);
        assertThat(otherClientId.json().path("error").asString()).isEqualTo("invalid_grant");
        assertThat(otherClientsSecret.status()).as(otherClientsSecret.toString()).isEqualTo(400);
        assertThat(otherClientsSecret.json().path("error").asString()).isEqualTo("invalid_grant");
        assertThat(ownIdWithASecret.status()).as(ownIdWithASecret.toString()).isEqualTo(401);
        assertThat(ownIdInTheFormWithASecret.status()).as(ownIdInTheFormWithASecret.toString()).isEqualTo(401);
        // None of them spent the token: the app it was issued to still refreshes with it.
        assertThat(Tokens.of(flow.refresh(app, tokens.refreshToken())).refreshToken()).isNotBlank();
    }

    @Test
    void malformedAndOversizeRefreshTokensAre400s() {
        TestUser fin = api.newUser("pr");
        App app = flow.registerApp("none", "read");
        Tokens tokens = flow.authorize(fin, app, "read");

        for (String value : List.of("x", " ", "a".repeat(513), "a".repeat(100_000), "%00\u0000", "ü🙂\u202e",
                "'; DROP TABLE oauth2_authorization; --", tokens.refreshToken() + "x", tokens.refreshToken().substring(1),
                tokens.accessToken())) {
            ApiResponse response = flow.refresh(app, value);
            assertThat(response.status()).as(value.length() > 40 ? value.substring(0, 40) : value).isEqualTo(400);
            assertThat(response.json().path("error").asString()).isIn("invalid_grant", "invalid_request");
        }
        for (String body : List.of("grant_type=refresh_token&client_id=" + app.clientId(),
                "grant_type=refresh_token&refresh_token=&client_id=" + app.clientId(),
                "grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=" + app.clientId())) {
            ApiResponse response = rawTokenRequest(body);
            assertThat(response.status()).as(body).isEqualTo(400);
            assertThat(response.json().path("error").asString()).as(body).isEqualTo("invalid_request");
        }
        ApiResponse longClientId = rawTokenRequest("grant_type=refresh_token&refresh_token=" + tokens.refreshToken()
                + "&client_id=" + "c".repeat(10_000));
        assertThat(longClientId.status()).isEqualTo(401);
        assertThat(Tokens.of(flow.refresh(app, tokens.refreshToken())).refreshToken()).as("not spent by the noise")
                .isNotBlank();
    }

    @Test
    void withdrawingThePublicAppKillsItsRefreshToken() {
        TestUser gil = api.newUser("pr");
        App app = flow.registerApp("none", "read");
        Tokens first = flow.authorize(gil, app, "read");
        Tokens current = Tokens.of(flow.refresh(app, first.refreshToken()));

        assertThat(api.delete("/api/v1/authorizations/" + app.clientId(), gil.token()).status()).isEqualTo(204);

        assertThat(flow.refresh(app, current.refreshToken()).status()).isEqualTo(400);
        assertThat(flow.refresh(app, first.refreshToken()).status()).isEqualTo(400);
        assertThat(api.get("/api/v1/me", current.accessToken()).status()).isEqualTo(401);
    }

    @Test
    void retiredTokensAreKeptHashedUntilTheyExpireThenSwept() throws Exception {
        TestUser hal = api.newUser("pr");
        App app = flow.registerApp("none", "read");
        Tokens first = flow.authorize(hal, app, "read");
        Tokens second = Tokens.of(flow.refresh(app, first.refreshToken()));
        Tokens.of(flow.refresh(app, second.refreshToken()));
        byte[] firstHash = MessageDigest.getInstance("SHA-256").digest(first.refreshToken().getBytes(StandardCharsets.UTF_8));

        List<byte[]> stored = jdbc.sql("SELECT token_hash FROM retired_refresh_tokens WHERE client_id = :c")
                .param("c", app.clientId()).query(byte[].class).list();
        assertThat(stored).hasSize(2).anySatisfy(hash -> assertThat(hash).isEqualTo(firstHash));
        assertThat(jdbc.sql("""
                SELECT COUNT(*) FROM retired_refresh_tokens
                WHERE client_id = :c AND expires_at BETWEEN UTC_TIMESTAMP(6) + INTERVAL 29 DAY AND UTC_TIMESTAMP(6) + INTERVAL 31 DAY
                """).param("c", app.clientId()).query(Integer.class).single()).as("kept as long as the token lived").isEqualTo(2);
        jdbc.sql("UPDATE retired_refresh_tokens SET expires_at = UTC_TIMESTAMP(6) - INTERVAL 1 SECOND WHERE token_hash = :h")
                .param("h", firstHash).update();

        long removed = retired.sweep(count -> { });

        assertThat(removed).isGreaterThanOrEqualTo(1);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM retired_refresh_tokens WHERE client_id = :c").param("c", app.clientId())
                .query(Integer.class).single()).as("the unexpired one stays").isEqualTo(1);
        assertThat(retired.name()).isEqualTo("oauth-retired-refresh-tokens");
    }

    private ApiResponse rawTokenRequest(String body) {
        return api.send(api.builder("/oauth2/token", null).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
