package dev.tributary.api.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/** Runs in its own context with a limit of 5 per token, low enough to reach. */
@ApiTest
@TestPropertySource(properties = {"tributary.api.rate-limit.requests=5", "tributary.api.rate-limit.anonymous-requests=1000"})
class RateLimitApiTest {

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void theHeadersCountDownToA429WithRetryAfter() {
        TestUser alice = api.newUser("rl");

        for (int remaining = 4; remaining >= 0; remaining--) {
            ApiResponse response = api.get("/api/v1/me", alice.token());
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("RateLimit-Limit")).isEqualTo("5");
            assertThat(response.header("RateLimit-Remaining")).isEqualTo(Integer.toString(remaining));
            assertThat(Long.parseLong(response.header("RateLimit-Reset"))).isBetween(1L, 300L);
        }
        ApiResponse refused = api.get("/api/v1/me", alice.token());

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().path("status").asInt()).isEqualTo(429);
        assertThat(refused.json().path("type").asString()).isNotEmpty();
        assertThat(refused.json().path("title").asString()).isNotEmpty();
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 300L);
        assertThat(refused.header("RateLimit-Remaining")).isEqualTo("0");
        assertThat(api.post("/api/v1/folders", alice.token(), Map.of("name", "x")).status()).as("writes share the bucket")
                .isEqualTo(429);
    }

    @Test
    void everyCredentialOfOnePersonSharesTheirBucketAndOthersHaveTheirOwn() {
        TestUser bob = api.newUser("rl");
        TestUser carol = api.newUser("rl");
        List<String> bobsTokens = List.of(bob.token(), api.createToken(bob.username(), bob.password(), "second", "read"),
                api.createToken(bob.username(), bob.password(), "third", "read"));
        OAuthFlow flow = new OAuthFlow(port);
        String bobsApp = flow.tokensFor(bob, "read").accessToken();
        String bobsReaderAuth = readerAuth(bob);

        // Five requests, spread over four credentials: bob's budget of 5 is spent.
        for (int i = 0; i < 4; i++) {
            ApiResponse spent = api.get("/api/v1/me", i < 3 ? bobsTokens.get(i) : bobsApp);
            assertThat(spent.status()).as(spent.toString()).isEqualTo(200);
            assertThat(spent.header("RateLimit-Remaining")).isEqualTo(Integer.toString(4 - i));
        }
        assertThat(readerUserInfo(bobsReaderAuth).status()).isEqualTo(200);

        for (String token : bobsTokens) {
            assertThat(api.get("/api/v1/me", token).status()).as("every token of bob's").isEqualTo(429);
        }
        assertThat(api.get("/api/v1/me", bobsApp).status()).as("an app acting for bob").isEqualTo(429);
        assertThat(api.get("/api/v1/me", api.createToken(bob.username(), bob.password(), "fresh", "read")).status())
                .as("a token made after the budget is spent").isEqualTo(429);
        assertThat(readerUserInfo(bobsReaderAuth).status()).as("a Google Reader login").isEqualTo(429);
        ApiResponse carols = api.get("/api/v1/me", carol.token());
        assertThat(carols.status()).isEqualTo(200);
        assertThat(carols.header("RateLimit-Remaining")).isEqualTo("4");
    }

    /** A Google Reader Auth value for the person's password, as reader apps sign in. */
    private String readerAuth(TestUser user) {
        ApiResponse login = api.send("POST", "/accounts/ClientLogin", null, "Email=" + user.username() + "&Passwd="
                + URLEncoder.encode(user.password(), StandardCharsets.UTF_8), "application/x-www-form-urlencoded");
        assertThat(login.status()).as(login.toString()).isEqualTo(200);
        return login.body().lines().filter(line -> line.startsWith("Auth=")).findFirst().orElseThrow().substring(5);
    }

    private ApiResponse readerUserInfo(String auth) {
        return api.send(api.builder("/reader/api/0/user-info", null).header("Authorization", "GoogleLogin auth=" + auth).GET());
    }

    @Test
    void errorsCarryTheHeadersToo() {
        TestUser dan = api.newUser("rl");

        ApiResponse notFound = api.get("/api/v1/no-such-thing", dan.token());
        ApiResponse badBody = api.post("/api/v1/accounts", null, "{\"username\": ");
        ApiResponse wrongMethod = api.send("PATCH", "/api/v1/me", dan.token(), "{}", "application/json");

        assertThat(notFound.status()).isEqualTo(404);
        assertThat(notFound.header("RateLimit-Remaining")).isEqualTo("4");
        assertThat(badBody.status()).isEqualTo(400);
        assertThat(badBody.header("RateLimit-Limit")).as("open endpoints count per address").isEqualTo("1000");
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.header("RateLimit-Remaining")).isEqualTo("3");
    }

    @Test
    void refusalsForWantOfAValidTokenCountPerAddressAndCarryTheHeaders() {
        ApiResponse none = api.get("/api/v1/me", null);
        ApiResponse bad = api.get("/api/v1/me", "trb_not_a_token");

        assertThat(none.status()).isEqualTo(401);
        assertThat(none.header("RateLimit-Limit")).isEqualTo("1000");
        assertThat(none.header("RateLimit-Reset")).isNotBlank();
        assertThat(bad.status()).isEqualTo(401);
        assertThat(bad.contentType()).startsWith("application/problem+json");
        assertThat(Long.parseLong(bad.header("RateLimit-Remaining")))
                .isLessThan(Long.parseLong(none.header("RateLimit-Remaining")));
    }

    @Test
    void theOpenEndpointsAreCountedPerAddress() {
        ApiResponse first = api.post("/api/v1/accounts", null, Map.of("username", ApiClient.uniqueUsername("rl"),
                "password", "long enough password"));
        ApiResponse second = api.post("/api/v1/accounts", null, Map.of("username", "x"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.header("RateLimit-Limit")).isEqualTo("1000");
        assertThat(Long.parseLong(second.header("RateLimit-Remaining")))
                .isLessThan(Long.parseLong(first.header("RateLimit-Remaining")));
    }
}
