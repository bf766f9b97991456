package dev.tributary.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.web.ApiSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Password checks in flight are not failures: while as many checks of an account are running as
 * it may fail, another sign-in is told to come back in a moment, not that it failed too often.
 * The checks in flight are held open through the throttle itself, as a crowd of parallel
 * sign-ins with the right password would hold them.
 */
@ApiTest
class ParallelSignInsApiTest {

    private static final String ADDRESS = "127.0.0.1";
    private static final String TOKEN_REQUEST = "{\"name\": \"x\", \"scopes\": [\"read\"]}";

    @LocalServerPort int port;
    @Autowired LoginThrottle throttle;
    @Autowired ApiSettings settings;
    @Autowired StringRedisTemplate redis;

    @AfterEach
    void forgetChecksFromThisAddress() {
        redis.delete(LoginThrottle.addressKey(ADDRESS));
    }

    @Test
    void aSignInBehindChecksInFlightIsTold429BusyNotLockedOut() {
        ApiClient api = new ApiClient(port);
        TestUser ann = api.newUser("busy");
        holdChecksInFlight(ann.username());

        ApiResponse busy = createToken(api, ann);

        assertThat(busy.status()).isEqualTo(429);
        assertThat(busy.contentType()).startsWith("application/problem+json");
        assertThat(busy.json().path("detail").asString()).contains("checked at once").doesNotContain("failed");
        assertThat(Long.parseLong(busy.header("Retry-After"))).isBetween(1L, 2L);
        // The checks end (right passwords): nothing was locked, the next sign-in goes through.
        for (int i = 0; i < settings.loginFailuresPerAccount(); i++) {
            throttle.succeeded(ann.username(), ADDRESS);
        }
        assertThat(createToken(api, ann).status()).isEqualTo(201);
    }

    @Test
    void theFormSaysSoToo() {
        OAuthFlow flow = new OAuthFlow(port);
        TestUser bea = flow.api().newUser("busy");
        holdChecksInFlight(bea.username());
        OAuthFlow.Browser browser = flow.browser();

        ApiResponse refused = browser.signIn(bea.username(), bea.password());

        assertThat(refused.header("Location")).endsWith("/login?busy");
        assertThat(browser.follow(refused).body()).contains("role=\"alert\"").contains("checked at once")
                .doesNotContain("Too many failed sign-ins");
    }

    @Test
    void failuresStillLockTheAccountOutWithTheirOwnMessage() {
        ApiClient api = new ApiClient(port);
        TestUser cai = api.newUser("busy");
        for (int i = 0; i < settings.loginFailuresPerAccount(); i++) {
            assertThat(api.send(api.builder("/api/v1/tokens", null).header("Authorization",
                    ApiClient.basic(cai.username(), "wrong " + i)).header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(TOKEN_REQUEST))).status()).isEqualTo(401);
        }

        ApiResponse locked = createToken(api, cai);

        assertThat(locked.status()).isEqualTo(429);
        assertThat(locked.json().path("detail").asString()).contains("failed logins");
        assertThat(Long.parseLong(locked.header("Retry-After"))).isGreaterThan(60);
    }

    private void holdChecksInFlight(String username) {
        for (int i = 0; i < settings.loginFailuresPerAccount(); i++) {
            assertThat(throttle.attempt(username, ADDRESS)).as("check %d let through", i).isEmpty();
        }
    }

    private static ApiResponse createToken(ApiClient api, TestUser user) {
        return api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(user.username(), user.password()))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(TOKEN_REQUEST)));
    }
}
