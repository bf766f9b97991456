package dev.tributary.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.BrowserSession;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.OAuthFlow.App;
import dev.tributary.api.testing.TestUser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Managing the account (tokens, authorised apps, the feed token, the password) takes the
 * {@code account} scope, which the person's session and personal tokens made with it hold and no
 * app can be granted: an app with {@code write} acts in the account but cannot take it over.
 */
@ApiTest
class AccountScopeApiTest {

    @LocalServerPort int port;
    @Autowired StringRedisTemplate redis;
    private ApiClient api;
    private OAuthFlow flow;

    @BeforeEach
    void client() {
        flow = new OAuthFlow(port);
        api = flow.api();
    }

    @AfterEach
    void forgetThisAddressesAttempts() {
        redis.delete(LoginThrottle.addressKey("127.0.0.1"));
    }

    /** What an app's token or a token without {@code account} tries, one account-management request each. */
    private List<ApiResponse> manage(String token, TestUser person, String tokenId, String otherApp) {
        return List.of(
                api.get("/api/v1/tokens", token),
                api.delete("/api/v1/tokens/" + tokenId, token),
                api.get("/api/v1/authorizations", token),
                api.delete("/api/v1/authorizations/" + otherApp, token),
                api.post("/api/v1/me/feed_token", token, null),
                api.post("/api/v1/me/password", token, Map.of("current_password", person.password(),
                        "new_password", "taken over by an app")));
    }

    @Test
    void anAppWithWriteCannotManageTheAccountAndChangesNothing() {
        TestUser alice = api.newUser("acct");
        String spare = api.createToken(alice.username(), alice.password(), "spare", "read");
        String spareId = tokenId(alice, "spare");
        App other = flow.registerApp("client_secret_basic", "read");
        String othersToken = flow.authorize(alice, other, "read").accessToken();
        String appToken = flow.tokensFor(alice, "read", "write").accessToken();
        String feedToken = makeFeedToken(alice);

        List<ApiResponse> refused = manage(appToken, alice, spareId, other.clientId());

        assertThat(refused).allSatisfy(response -> {
            assertThat(response.status()).as(response.toString()).isEqualTo(403);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.json().path("type").asString()).endsWith("insufficient-scope");
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Bearer error=\"insufficient_scope\", scope=\"account\"");
        });
        assertThat(api.get("/api/v1/me", spare).status()).as("the token was not revoked").isEqualTo(200);
        assertThat(api.get("/api/v1/me", othersToken).status()).as("the other app was not withdrawn").isEqualTo(200);
        assertThat(feedStatus(feedToken)).as("the feed token was not rotated").isEqualTo(200);
        assertThat(new BrowserSession(port).signIn(alice.username(), alice.password()).header("Location"))
                .as("the password was not changed").doesNotContain("error");
        ApiResponse wrote = api.post("/api/v1/folders", appToken, Map.of("name", "Still writes"));
        assertThat(wrote.status()).as("write is still write").isEqualTo(201);
    }

    @Test
    void aPersonalTokenWithoutAccountCannotEither() {
        TestUser bob = api.newUser("acct");
        String plain = api.createToken(bob.username(), bob.password(), "plain", "read", "write");
        api.createToken(bob.username(), bob.password(), "spare", "read");
        App other = flow.registerApp("client_secret_basic", "read");
        flow.authorize(bob, other, "read");

        assertThat(manage(plain, bob, tokenId(bob, "spare"), other.clientId()))
                .allSatisfy(response -> assertThat(response.status()).as(response.toString()).isEqualTo(403));
    }

    @Test
    void aPersonalTokenWithAccountManagesTheAccount() {
        TestUser cy = api.newUser("acct");
        String manager = api.createToken(cy.username(), cy.password(), "manager", "account");
        String spare = api.createToken(cy.username(), cy.password(), "spare", "read");
        App other = flow.registerApp("client_secret_basic", "read");
        String othersToken = flow.authorize(cy, other, "read").accessToken();
        String before = makeFeedToken(cy);

        ApiResponse listed = api.get("/api/v1/tokens", manager);
        ApiResponse revoked = api.delete("/api/v1/tokens/" + tokenId(cy, "spare"), manager);
        ApiResponse withdrawn = api.delete("/api/v1/authorizations/" + other.clientId(), manager);
        ApiResponse rotated = api.post("/api/v1/me/feed_token", manager, null);

        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().findValuesAsString("name")).contains("manager", "spare");
        assertThat(listed.json().valueStream().filter(t -> t.path("name").asString().equals("manager")).findFirst()
                .orElseThrow().path("scopes").toString()).isEqualTo("[\"account\"]");
        assertThat(revoked.status()).isEqualTo(204);
        assertThat(api.get("/api/v1/me", spare).status()).isEqualTo(401);
        assertThat(withdrawn.status()).isEqualTo(204);
        assertThat(api.get("/api/v1/me", othersToken).status()).isEqualTo(401);
        assertThat(rotated.status()).isEqualTo(200);
        assertThat(rotated.json().path("feed_token").asString()).isNotBlank().isNotEqualTo(before);
        assertThat(feedStatus(before)).isEqualTo(404);
        assertThat(api.get("/api/v1/me", manager).status()).as("account alone does not read").isEqualTo(403);
    }

    @Test
    void theSignedInSessionManagesTheAccount() {
        TestUser dee = api.newUser("acct");
        api.createToken(dee.username(), dee.password(), "spare", "read");
        BrowserSession browser = new BrowserSession(port);
        assertThat(OAuthFlow.isRedirectTo(browser.signIn(dee.username(), dee.password()), "/")).isTrue();
        String csrf = browser.csrfToken();

        ApiResponse listed = browser.get("/api/v1/tokens");
        ApiResponse revoked = browser.send("DELETE", "/api/v1/tokens/" + tokenId(dee, "spare"), null, "X-CSRF-TOKEN", csrf);
        ApiResponse rotated = browser.send("POST", "/api/v1/me/feed_token", null, "X-CSRF-TOKEN", csrf);

        assertThat(listed.status()).as(listed.toString()).isEqualTo(200);
        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(204);
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
    }

    @Test
    void noAppIsRegisteredForNorGrantedAccount() {
        TestUser eve = api.newUser("acct");
        ApiResponse registered = api.post("/api/v1/apps", null, Map.of("client_name", "Greedy",
                "redirect_uris", List.of(OAuthFlow.REDIRECT_URI), "scopes", List.of("read", "account")));
        App app = flow.registerApp("client_secret_basic", "read", "write");

        OAuthFlow.Browser browser = flow.browser();
        browser.signIn(eve.username(), eve.password());
        ApiResponse asked = browser.get(OAuthFlow.authorizePath(app, "read account", "s", OAuthFlow.Pkce.create(),
                app.redirectUri()));

        assertThat(registered.status()).isEqualTo(400);
        assertThat(registered.contentType()).startsWith("application/problem+json");
        assertThat(asked.status()).as(asked.toString()).isEqualTo(302);
        assertThat(asked.header("Location")).startsWith(app.redirectUri()).contains("error=invalid_scope")
                .doesNotContain("code=");
    }

    private String tokenId(TestUser person, String name) {
        return api.get("/api/v1/tokens", person.token()).json().valueStream()
                .filter(t -> t.path("name").asString().equals(name)).findFirst().orElseThrow().path("id").asString();
    }

    /** Makes a feed token with the person's own token: it is shown only in that answer. */
    private String makeFeedToken(TestUser person) {
        return api.post("/api/v1/me/feed_token", person.token(), null).json().path("feed_token").asString();
    }

    private int feedStatus(String feedToken) {
        return api.send(api.builder("/feeds/home.rss?token=" + feedToken, null).header("Accept", "*/*").GET()).status();
    }
}
