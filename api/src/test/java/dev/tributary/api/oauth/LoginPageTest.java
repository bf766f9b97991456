package dev.tributary.api.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.OAuthFlow.App;
import dev.tributary.api.testing.OAuthFlow.Browser;
import dev.tributary.api.testing.OAuthFlow.Pkce;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.web.ApiSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The sign-in form of the OAuth flow: its messages, its CSRF token and its throttling. */
@ApiTest
class LoginPageTest {

    @LocalServerPort int port;
    @Autowired ApiSettings settings;
    @Autowired StringRedisTemplate redis;
    private OAuthFlow flow;
    private ApiClient api;

    @BeforeEach
    void client() {
        flow = new OAuthFlow(port);
        api = flow.api();
    }

    /**
     * Every test signs in from 127.0.0.1: forget this class's failures from there, so the shared
     * per-address count does not lock other tests out (LoginThrottle's key for the address).
     */
    @AfterEach
    void forgetFailuresFromThisAddress() {
        redis.delete("login:throttle:addr:127.0.0.1");
    }

    @Test
    void theFormIsPlainHtmlWithACsrfToken() {
        ApiResponse page = flow.browser().get("/login");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.body()).contains("<label for=\"username\">").contains("<label for=\"password\">")
                .contains("autocomplete=\"current-password\"");
        assertThat(OAuthFlow.hiddenField(page.body(), "_csrf")).isPresent();
    }

    @Test
    void aWrongPasswordSaysSoAndSignsNobodyIn() {
        TestUser alice = api.newUser("lp");
        Browser browser = flow.browser();

        ApiResponse failed = browser.signIn(alice.username(), "not her password");

        assertThat(failed.header("Location")).endsWith("/login?error");
        assertThat(browser.follow(failed).body()).contains("role=\"alert\"").contains("Wrong username or password");
    }

    @Test
    void aSignInWithoutTheCsrfTokenIsRefused() {
        TestUser bob = api.newUser("lp");
        Browser browser = flow.browser();
        browser.get("/login");

        ApiResponse forged = browser.postForm("/login", List.of(Map.entry("username", bob.username()),
                Map.entry("password", bob.password())));

        assertThat(forged.status()).isEqualTo(403);
    }

    @Test
    void afterTooManyWrongPasswordsEvenTheRightOneIsRefusedForTheLockOut() {
        TestUser carol = api.newUser("lp");
        App app = flow.registerApp("client_secret_basic", "read");
        Browser browser = flow.browser();
        browser.get(OAuthFlow.authorizePath(app, "read", "s", Pkce.create(), app.redirectUri()));
        for (int i = 0; i < settings.loginFailuresPerAccount(); i++) {
            assertThat(browser.signIn(carol.username(), "guess " + i).header("Location")).endsWith("/login?error");
        }

        ApiResponse refused = browser.signIn(carol.username(), carol.password());

        assertThat(refused.header("Location")).contains("/login?throttled=");
        assertThat(browser.follow(refused).body()).contains("role=\"alert\"").contains("Too many failed sign-ins")
                .contains(Long.toString(settings.loginLockout().toMinutes()));
        ApiResponse stillOut = browser.get(OAuthFlow.authorizePath(app, "read", "s", Pkce.create(), app.redirectUri()));
        assertThat(OAuthFlow.isRedirectTo(stillOut, "/login")).as("not signed in").isTrue();
        // The API's password door is the same one: locked too.
        assertThat(api.send(api.builder("/api/v1/tokens", null).header("Authorization",
                ApiClient.basic(carol.username(), carol.password())).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"name\":\"x\",\"scopes\":[\"read\"]}"))).status())
                .isEqualTo(429);
    }

    @Test
    void theLockOutMessageIsNotTheQueryStringsToWrite() {
        ApiResponse page = flow.browser().get("/login?throttled=%3Cscript%3Ealert(1)%3C/script%3E");

        assertThat(page.body()).doesNotContain("<script>").doesNotContain("Too many failed sign-ins");
    }
}
