package dev.tributary.api.password;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.BrowserSession;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import java.net.http.HttpRequest;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * POST /api/v1/me/password: the current password is checked, the new one held to sign-up's rules,
 * and what the old password opened ends (other browser sessions, Google Reader logins made with it)
 * while the caller's own session and personal tokens go on.
 */
@ApiTest
class PasswordChangeApiTest {

    private static final String NEW_PASSWORD = "a-brand-new-password";

    @LocalServerPort int port;
    @Autowired StringRedisTemplate redis;
    private ApiClient api;
    private ReaderClient reader;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        reader = new ReaderClient(api);
    }

    @AfterEach
    void forgetThisAddressesAttempts() {
        // Every test signs in from 127.0.0.1: its count must not lock other tests out.
        redis.delete("login:throttle:addr:127.0.0.1");
    }

    @Test
    void aChangeEndsOtherSessionsAndPasswordReaderLoginsButNotTokens() {
        TestUser ann = api.newUser("pw");
        BrowserSession browser = BrowserSession.signedIn(port, ann);
        String readerAuth = reader.login(ann.username(), ann.password());
        assertThat(userInfo(readerAuth).status()).isEqualTo(200);
        assertThat(browser.get("/api/v1/me").status()).isEqualTo(200);

        ApiResponse changed = change(ann.token(), ann.password(), NEW_PASSWORD);

        assertThat(changed.status()).as(changed.toString()).isEqualTo(204);
        assertThat(browser.get("/api/v1/me").status()).as("the other session ended").isEqualTo(401);
        assertThat(userInfo(readerAuth).status()).as("the Reader login made with the old password").isEqualTo(401);
        assertThat(api.get("/api/v1/me", ann.token()).status()).as("personal tokens stay").isEqualTo(200);
        assertThat(tokenWith(ann.username(), ann.password()).status()).isEqualTo(401);
        assertThat(tokenWith(ann.username(), NEW_PASSWORD).status()).isEqualTo(201);
        assertThat(OAuthFlow.isRedirectTo(new BrowserSession(port).signIn(ann.username(), NEW_PASSWORD), "/")).isTrue();
    }

    @Test
    void theSessionThatChangesItStaysSignedInAndTheOthersEnd() {
        TestUser ben = api.newUser("pw");
        BrowserSession here = BrowserSession.signedIn(port, ben);
        BrowserSession elsewhere = BrowserSession.signedIn(port, ben);

        ApiResponse changed = here.send("POST", "/api/v1/me/password",
                "{\"current_password\":\"" + ben.password() + "\",\"new_password\":\"" + NEW_PASSWORD + "\"}",
                "X-CSRF-TOKEN", here.csrfToken());

        assertThat(changed.status()).as(changed.toString()).isEqualTo(204);
        assertThat(here.get("/api/v1/me").status()).isEqualTo(200);
        assertThat(elsewhere.get("/api/v1/me").status()).isEqualTo(401);
    }

    @Test
    void aWrongCurrentPasswordOrAWeakNewOneChangesNothing() {
        TestUser cat = api.newUser("pw");

        ApiResponse wrong = change(cat.token(), "not-the-password", NEW_PASSWORD);
        ApiResponse tooShort = change(cat.token(), cat.password(), "short");
        ApiResponse tooLong = change(cat.token(), cat.password(), "é".repeat(40));
        ApiResponse missing = api.post("/api/v1/me/password", cat.token(), Map.of("new_password", NEW_PASSWORD));
        ApiResponse notJson = api.send("POST", "/api/v1/me/password", cat.token(), "current_password=x", "text/plain");
        ApiResponse anonymous = api.post("/api/v1/me/password", null,
                Map.of("current_password", cat.password(), "new_password", NEW_PASSWORD));

        assertThat(wrong.status()).as(wrong.toString()).isEqualTo(400);
        assertThat(wrong.contentType()).startsWith("application/problem+json");
        assertThat(wrong.body()).contains("current_password");
        assertThat(tooShort.status()).isEqualTo(400);
        assertThat(tooShort.body()).contains("new_password");
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(missing.status()).isEqualTo(400);
        assertThat(notJson.status()).isBetween(400, 499);
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(tokenWith(cat.username(), cat.password()).status()).as("the password is unchanged").isEqualTo(201);
    }

    @Test
    void wrongCurrentPasswordsAreThrottledLikeSignIns() {
        TestUser dee = api.newUser("pw");
        for (int i = 0; i < 5; i++) {
            assertThat(change(dee.token(), "wrong-" + i, NEW_PASSWORD).status()).isEqualTo(400);
        }

        ApiResponse throttled = change(dee.token(), dee.password(), NEW_PASSWORD);

        assertThat(throttled.status()).isEqualTo(429);
        assertThat(throttled.header("Retry-After")).isNotBlank();
    }

    @Test
    void anAppCannotChangeThePassword() {
        TestUser eve = api.newUser("pw");
        OAuthFlow.Tokens app = new OAuthFlow(port).tokensFor(eve, "read", "write");

        ApiResponse refused = change(app.accessToken(), eve.password(), NEW_PASSWORD);

        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(tokenWith(eve.username(), eve.password()).status()).isEqualTo(201);
    }

    private ApiResponse change(String token, String current, String next) {
        return api.post("/api/v1/me/password", token, Map.of("current_password", current, "new_password", next));
    }

    private ApiResponse tokenWith(String username, String password) {
        return api.send(api.builder("/api/v1/tokens", null).header("Authorization", ApiClient.basic(username, password))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"x\", \"scopes\": [\"read\"]}")));
    }

    private ApiResponse userInfo(String auth) {
        return reader.get("/reader/api/0/user-info", auth);
    }
}
