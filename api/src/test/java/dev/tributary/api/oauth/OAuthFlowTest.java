package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.OAuthFlow.App;
import dev.tributary.api.testing.OAuthFlow.Browser;
import dev.tributary.api.testing.OAuthFlow.Pkce;
import dev.tributary.api.testing.OAuthFlow.Tokens;
import dev.tributary.api.testing.TestUser;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The authorization-code flow with PKCE end to end over HTTP, and its refusals. */
@ApiTest
class OAuthFlowTest {

    @LocalServerPort int port;
    @Autowired StringRedisTemplate redis;
    @Autowired JdbcClient jdbc;
    private OAuthFlow flow;
    private ApiClient api;

    @BeforeEach
    void client() {
        flow = new OAuthFlow(port);
        api = flow.api();
    }

    @Test
    void aPersonAuthorisesAnAppWhichThenActsForThemUntilTheTokenIsRevoked() {
        TestUser alice = api.newUser("oa");
        App app = flow.registerApp("client_secret_basic", "read", "write");
        Browser browser = flow.browser();
        Pkce pkce = Pkce.create();

        ApiResponse authorize = browser.get(OAuthFlow.authorizePath(app, "read write", "xyz", pkce, app.redirectUri()));
        assertThat(OAuthFlow.isRedirectTo(authorize, "/login")).as(authorize.toString()).isTrue();
        ApiResponse signedIn = browser.signIn(alice.username(), alice.password());
        assertThat(signedIn.header("Location")).contains("/oauth2/authorize");
        ApiResponse toConsent = browser.follow(signedIn);
        assertThat(OAuthFlow.isRedirectTo(toConsent, "/oauth2/consent")).as(toConsent.toString()).isTrue();
        ApiResponse consent = browser.get(toConsent.header("Location"));
        assertThat(consent.body()).contains("Test app client_secret_basic").contains("read").contains("write");
        ApiResponse back = browser.approve(consent, List.of("read", "write"));
        assertThat(back.status()).isEqualTo(302);
        Map<String, String> query = OAuthFlow.query(back.header("Location"));
        assertThat(back.header("Location")).startsWith(app.redirectUri() + "?");
        assertThat(query).containsEntry("state", "xyz").containsKey("code");

        Tokens tokens = Tokens.of(flow.exchange(app, query.get("code"), pkce.verifier(), app.redirectUri()));
        assertThat(tokens.refreshToken()).isNotBlank();
        assertThat(tokens.json().path("token_type").asString()).isEqualTo("Bearer");
        JsonNode claims = claims(tokens.accessToken());
        assertThat(claims.path("sub").asString()).isEqualTo(alice.id());
        assertThat(claims.path("scope").asString()).isEqualTo("read write");
        assertThat(claims.path("client_id").asString()).isEqualTo(app.clientId());

        ApiResponse me = api.get("/api/v1/me", tokens.accessToken());
        assertThat(me.status()).as(me.toString()).isEqualTo(200);
        assertThat(me.json().path("id").asString()).isEqualTo(alice.id());
        ApiResponse wrote = api.post("/api/v1/folders", tokens.accessToken(), Map.of("name", "From the app"));
        assertThat(wrote.status()).as(wrote.toString()).isEqualTo(201);

        Tokens refreshed = Tokens.of(flow.refresh(app, tokens.refreshToken()));
        assertThat(refreshed.refreshToken()).isNotEqualTo(tokens.refreshToken());
        assertThat(flow.refresh(app, tokens.refreshToken()).status()).as("a rotated refresh token is spent").isEqualTo(400);
        assertThat(api.get("/api/v1/me", refreshed.accessToken()).status()).isEqualTo(200);

        assertThat(flow.revoke(app, refreshed.accessToken()).status()).isEqualTo(200);

        ApiResponse afterRevoke = api.get("/api/v1/me", refreshed.accessToken());
        assertThat(afterRevoke.status()).isEqualTo(401);
        assertThat(afterRevoke.header("WWW-Authenticate")).contains("invalid_token");
        // Revoking the access token alone leaves the grant: the refresh token still works.
        Tokens again = Tokens.of(flow.refresh(app, refreshed.refreshToken()));
        assertThat(api.get("/api/v1/me", again.accessToken()).status()).isEqualTo(200);
    }

    @Test
    void revokingARefreshTokenRefusesEveryAccessTokenOfItsGrant() {
        TestUser bob = api.newUser("oa");
        App app = flow.registerApp("client_secret_post", "read");
        Tokens first = flow.authorize(bob, app, "read");
        Tokens second = Tokens.of(flow.refresh(app, first.refreshToken()));
        assertThat(api.get("/api/v1/me", first.accessToken()).status()).isEqualTo(200);

        assertThat(flow.revoke(app, second.refreshToken()).status()).isEqualTo(200);

        assertThat(api.get("/api/v1/me", second.accessToken()).status()).isEqualTo(401);
        assertThat(api.get("/api/v1/me", first.accessToken()).status()).as("issued before the refresh").isEqualTo(401);
        assertThat(flow.refresh(app, second.refreshToken()).status()).isEqualTo(400);
    }

    @Test
    void aPublicAppUsesPkceAndGetsARefreshTokenToo() {
        TestUser carol = api.newUser("oa");
        App app = flow.registerApp("none", "read");
        assertThat(app.clientSecret()).isNull();

        Tokens tokens = flow.authorize(carol, app, "read");

        assertThat(tokens.refreshToken()).as("single-use: PublicClientRefreshTest").isNotBlank();
        assertThat(api.get("/api/v1/me", tokens.accessToken()).json().path("id").asString()).isEqualTo(carol.id());
        assertThat(flow.revoke(app, tokens.accessToken()).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/me", tokens.accessToken()).status()).isEqualTo(401);
    }

    @Test
    void anAuthorizationRequestWithoutPkceIsRefused() {
        TestUser dan = api.newUser("oa");
        for (String method : List.of("none", "client_secret_basic")) {
            App app = flow.registerApp(method, "read");
            Browser browser = flow.browser();
            browser.follow(browser.signIn(dan.username(), dan.password()));

            ApiResponse response = browser.get(OAuthFlow.authorizePath(app, "read", "s1", null, app.redirectUri()));

            assertThat(response.status()).as(method).isEqualTo(302);
            Map<String, String> query = OAuthFlow.query(response.header("Location"));
            assertThat(response.header("Location")).startsWith(app.redirectUri());
            assertThat(query).as(method).containsEntry("error", "invalid_request").doesNotContainKey("code");
        }
    }

    @Test
    void anUnregisteredRedirectUriIsNeverRedirectedTo() {
        TestUser erin = api.newUser("oa");
        App app = flow.registerApp("client_secret_basic", "read");
        Browser browser = flow.browser();
        browser.follow(browser.signIn(erin.username(), erin.password()));

        for (String attacker : List.of("https://attacker.example/callback", OAuthFlow.REDIRECT_URI + "/../evil",
                OAuthFlow.REDIRECT_URI + "?x=1", "javascript:alert(1)")) {
            ApiResponse response = browser.get(OAuthFlow.authorizePath(app, "read", "s", Pkce.create(), attacker));

            assertThat(response.status()).as(attacker).isEqualTo(400);
            assertThat(response.header("Location")).as(attacker).isNull();
        }
        ApiResponse unknownClient = browser.get(OAuthFlow.authorizePath(
                new App("no-such-client", null, OAuthFlow.REDIRECT_URI, "none"), "read", "s", Pkce.create(),
                OAuthFlow.REDIRECT_URI));
        assertThat(unknownClient.status()).isEqualTo(400);
        assertThat(unknownClient.header("Location")).isNull();
    }

    @Test
    void theCodeIsBoundToItsVerifierRedirectUriAndOneUse() {
        TestUser fay = api.newUser("oa");
        App app = flow.registerApp("client_secret_basic", "read");
        Pkce pkce = Pkce.create();
        String code = flow.code(flow.browser(), fay, app, "read", pkce);

        assertThat(error(flow.exchange(app, code, Pkce.create().verifier(), app.redirectUri()))).isEqualTo("invalid_grant");
        String code2 = flow.code(flow.browser(), fay, app, "read", pkce);
        assertThat(error(flow.exchange(app, code2, pkce.verifier(), "https://app.example/other"))).isEqualTo("invalid_grant");

        String code3 = flow.code(flow.browser(), fay, app, "read", pkce);
        Tokens tokens = Tokens.of(flow.exchange(app, code3, pkce.verifier(), app.redirectUri()));
        assertThat(error(flow.exchange(app, code3, pkce.verifier(), app.redirectUri()))).isEqualTo("invalid_grant");
        // A reused code means it leaked: what was issued for it is revoked (OAuth 2.1 §4.1.3).
        assertThat(api.get("/api/v1/me", tokens.accessToken()).status()).isEqualTo(401);
    }

    @Test
    void aWrongOrMissingClientSecretIsRefused() {
        TestUser gus = api.newUser("oa");
        App app = flow.registerApp("client_secret_basic", "read");
        Pkce pkce = Pkce.create();
        String code = flow.code(flow.browser(), gus, app, "read", pkce);
        App impostor = new App(app.clientId(), "not-the-secret", app.redirectUri(), app.authMethod());

        ApiResponse wrong = flow.exchange(impostor, code, pkce.verifier(), app.redirectUri());
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(error(wrong)).isEqualTo("invalid_client");
        App asPublic = new App(app.clientId(), null, app.redirectUri(), "none");
        assertThat(flow.exchange(asPublic, code, pkce.verifier(), app.redirectUri()).status()).isEqualTo(401);

        assertThat(flow.exchange(app, code, pkce.verifier(), app.redirectUri()).status()).isEqualTo(200);
    }

    @Test
    void anAppIsNotShownTheFeedTokenNorMayRotateItWhichThePersonsOwnTokenIs() {
        TestUser jo = api.newUser("oa");
        Tokens tokens = flow.tokensFor(jo, "read", "write");
        ApiResponse madeByPerson = api.post("/api/v1/me/feed_token", jo.token(), null);

        ApiResponse asApp = api.get("/api/v1/me", tokens.accessToken());
        ApiResponse rotatedByApp = api.post("/api/v1/me/feed_token", tokens.accessToken(), null);

        assertThat(asApp.status()).isEqualTo(200);
        assertThat(asApp.json().has("feed_token")).as(asApp.body()).isFalse();
        assertThat(rotatedByApp.status()).as("rotating it is managing the account").isEqualTo(403);
        assertThat(rotatedByApp.header("WWW-Authenticate")).contains("scope=\"account\"");
        assertThat(madeByPerson.json().path("feed_token").asString()).isNotBlank();
        assertThat(asApp.body()).doesNotContain(madeByPerson.json().path("feed_token").asString());
    }

    @Test
    void revokedAccessTokensStayRefusedWhenRedisLosesTheDenyList() {
        TestUser kim = api.newUser("oa");
        App app = flow.registerApp("client_secret_basic", "read");
        Tokens revokedAlone = flow.authorize(kim, app, "read");
        Tokens ofWithdrawnGrant = flow.authorize(kim, flow.registerApp("client_secret_basic", "read"), "read");
        Tokens live = flow.authorize(kim, flow.registerApp("client_secret_basic", "read"), "read");
        assertThat(flow.revoke(app, revokedAlone.accessToken()).status()).isEqualTo(200);
        String withdrawn = claims(ofWithdrawnGrant.accessToken()).path("client_id").asString();
        assertThat(api.delete("/api/v1/authorizations/" + withdrawn, kim.token()).status()).isEqualTo(204);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM revoked_access_tokens WHERE subject = :s").param("s", kim.id())
                .query(Integer.class).single()).as("kept in MySQL").isEqualTo(2);

        // What a Redis restart without persistence or a FLUSHALL does to the deny-list.
        redis.delete(redis.keys("oauth:revoked:*"));

        assertThat(api.get("/api/v1/me", revokedAlone.accessToken()).status()).isEqualTo(401);
        assertThat(api.get("/api/v1/me", ofWithdrawnGrant.accessToken()).status()).isEqualTo(401);
        assertThat(api.get("/api/v1/me", live.accessToken()).status()).as("others are not refused").isEqualTo(200);
        assertThat(redis.keys("oauth:revoked:{" + kim.id() + "}:*")).as("rebuilt in Redis").hasSize(2);
    }

    @Test
    void anAppsRequestsDoNotOpenRedisConnectionsOfTheirOwn() {
        TestUser lee = api.newUser("oa");
        Tokens tokens = flow.authorize(lee, flow.registerApp("client_secret_basic", "read"), "read");
        assertThat(api.get("/api/v1/me", tokens.accessToken()).status()).isEqualTo(200);

        long before = connectionsReceived();
        for (int i = 0; i < 30; i++) {
            assertThat(api.get("/api/v1/me", tokens.accessToken()).status()).isEqualTo(200);
        }
        // Each check of the deny-list used to be a pipeline, which opens a connection of its own.
        assertThat(connectionsReceived() - before).as("connections Redis accepted during 30 requests").isLessThan(10);
    }

    /** Redis's count of connections accepted since it started (summed over a cluster's nodes). */
    private long connectionsReceived() {
        java.util.Properties stats = redis.execute((org.springframework.data.redis.core.RedisCallback<java.util.Properties>)
                connection -> connection.serverCommands().info("stats"));
        return stats.stringPropertyNames().stream().filter(name -> name.endsWith("total_connections_received"))
                .mapToLong(name -> Long.parseLong(stats.getProperty(name).trim())).sum();
    }

    @Test
    void aReadOnlyTokenReadsButCannotWrite() {
        TestUser hal = api.newUser("oa");
        Tokens tokens = flow.tokensFor(hal, "read");

        assertThat(api.get("/api/v1/me", tokens.accessToken()).status()).isEqualTo(200);
        ApiResponse write = api.post("/api/v1/folders", tokens.accessToken(), Map.of("name", "Not allowed"));
        assertThat(write.status()).isEqualTo(403);
        assertThat(write.header("WWW-Authenticate")).contains("insufficient_scope").contains("scope=\"write\"");
    }

    @Test
    void anAppGetsOnlyTheScopesThePersonTicked() {
        TestUser ivy = api.newUser("oa");
        App app = flow.registerApp("client_secret_basic", "read", "write");
        Browser browser = flow.browser();
        Pkce pkce = Pkce.create();
        ApiResponse login = browser.get(OAuthFlow.authorizePath(app, "read write", "s", pkce, app.redirectUri()));
        assertThat(OAuthFlow.isRedirectTo(login, "/login")).isTrue();
        ApiResponse consent = browser.get(browser.follow(browser.signIn(ivy.username(), ivy.password())).header("Location"));

        ApiResponse back = browser.approve(consent, List.of("read"));

        String code = OAuthFlow.query(back.header("Location")).get("code");
        Tokens tokens = Tokens.of(flow.exchange(app, code, pkce.verifier(), app.redirectUri()));
        assertThat(tokens.scope()).isEqualTo("read");
        assertThat(api.post("/api/v1/folders", tokens.accessToken(), Map.of("name", "Unticked")).status()).isEqualTo(403);
    }

    @Test
    void denyingConsentSendsAccessDeniedBackToTheApp() {
        TestUser jo = api.newUser("oa");
        App app = flow.registerApp("client_secret_basic", "read");
        Browser browser = flow.browser();
        browser.get(OAuthFlow.authorizePath(app, "read", "s9", Pkce.create(), app.redirectUri()));
        ApiResponse consent = browser.get(browser.follow(browser.signIn(jo.username(), jo.password())).header("Location"));

        ApiResponse back = browser.approve(consent, List.of());

        assertThat(back.header("Location")).startsWith(app.redirectUri());
        assertThat(OAuthFlow.query(back.header("Location"))).containsEntry("error", "access_denied")
                .containsEntry("state", "s9").doesNotContainKey("code");
    }

    @Test
    void aConsentCannotBeForgedWithoutItsOneTimeState() {
        TestUser kim = api.newUser("oa");
        App app = flow.registerApp("client_secret_basic", "read");
        Browser browser = flow.browser();
        browser.get(OAuthFlow.authorizePath(app, "read", "s", Pkce.create(), app.redirectUri()));
        ApiResponse consent = browser.get(browser.follow(browser.signIn(kim.username(), kim.password())).header("Location"));

        // A cross-site form can't read the consent page, so it knows neither the CSRF token nor the state.
        ApiResponse forged = browser.postForm("/oauth2/authorize", List.of(
                Map.entry("client_id", app.clientId()), Map.entry("state", "guessed"), Map.entry("scope", "read")));

        assertThat(forged.status()).isEqualTo(400);
        assertThat(forged.header("Location")).isNull();
        assertThat(consent.body()).contains("name=\"_csrf\"");
    }

    @Test
    void theMetadataDescribesTheServer() {
        ApiResponse metadata = api.get("/.well-known/oauth-authorization-server", null);

        assertThat(metadata.status()).isEqualTo(200);
        JsonNode json = metadata.json();
        assertThat(json.path("issuer").asString()).isEqualTo(api.url(""));
        assertThat(json.path("authorization_endpoint").asString()).isEqualTo(api.url("/oauth2/authorize"));
        assertThat(json.path("token_endpoint").asString()).isEqualTo(api.url("/oauth2/token"));
        assertThat(json.path("revocation_endpoint").asString()).isEqualTo(api.url("/oauth2/revoke"));
        assertThat(json.path("code_challenge_methods_supported").toString()).contains("S256");
        assertThat(strings(json.path("scopes_supported"))).containsExactly("read", "write");
        assertThat(strings(json.path("grant_types_supported"))).as("only the grants an app can register")
                .containsExactlyInAnyOrder("authorization_code", "refresh_token");
        assertThat(strings(json.path("token_endpoint_auth_methods_supported")))
                .containsExactlyInAnyOrder("client_secret_basic", "client_secret_post", "none");
        assertThat(strings(json.path("revocation_endpoint_auth_methods_supported"))).contains("none");
        assertThat(json.has("dpop_signing_alg_values_supported")).isFalse();
        assertThat(json.has("tls_client_certificate_bound_access_tokens")).isFalse();
    }

    private static List<String> strings(JsonNode array) {
        return array.valueStream().map(JsonNode::asString).toList();
    }

    @Test
    void forgedAndMalformedJwtsAreRefused() {
        TestUser lee = api.newUser("oa");
        String token = flow.tokensFor(lee, "read", "write").accessToken();
        String[] parts = token.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        String otherPerson = Base64.getUrlEncoder().withoutPadding().encodeToString(
                payload.replace("\"sub\":\"" + lee.id() + "\"", "\"sub\":\"1\"").getBytes(StandardCharsets.UTF_8));
        String unsigned = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"alg\":\"none\",\"typ\":\"at+jwt\"}".getBytes(StandardCharsets.UTF_8));

        for (String forged : List.of(parts[0] + "." + otherPerson + "." + parts[2], unsigned + "." + parts[1] + ".",
                unsigned + "." + parts[1] + "." + parts[2], "a.b.c", parts[0] + "." + parts[1] + ".AAAA")) {
            ApiResponse response = api.get("/api/v1/me", forged);
            assertThat(response.status()).as(forged).isEqualTo(401);
            assertThat(response.contentType()).startsWith("application/problem+json");
        }
    }

    private static String error(ApiResponse response) {
        assertThat(response.status()).as(response.toString()).isBetween(400, 401);
        return response.json().path("error").asString();
    }

    static JsonNode claims(String jwt) {
        String payload = new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), StandardCharsets.UTF_8);
        return JsonMapper.builder().build().readTree(payload);
    }
}
