package dev.tributary.api.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * Every public path counts against a budget of its own, and a credential that does not
 * authenticate counts against its address. Its own context with budgets of 3 (sign-in 4: a
 * browser's sign-in is a GET and a POST), low enough to reach; every test starts from empty
 * buckets, as they all come from 127.0.0.1.
 */
@ApiTest
@TestPropertySource(properties = {"tributary.api.rate-limit.requests=1000", "tributary.api.rate-limit.anonymous-requests=3",
        "tributary.api.rate-limit.page-requests=3", "tributary.api.rate-limit.feed-requests=3",
        "tributary.api.rate-limit.sign-in-requests=4", "tributary.api.rate-limit.oauth-requests=3",
        "tributary.api.rate-limit.websub-requests=3"})
class PublicPathsRateLimitApiTest {

    @LocalServerPort int port;
    @Autowired StringRedisTemplate redis;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        // The contract document is fetched (a page request) with the first API answer: before the buckets are emptied.
        api.get("/api/v1/me", null);
    }

    @Test
    void feedsAreLimitedPerAddress() {
        TestUser ann = newUserWithEmptyBuckets();

        assertLimitedAfter(3, () -> get("/feeds/users/" + ann.username() + ".rss"), 200);
    }

    @Test
    void theSignInFormIsLimitedPerAddressGetAndPost() {
        forgetBuckets();
        OAuthFlow.Browser browser = new OAuthFlow(port).browser();

        assertThat(browser.get("/login").status()).isEqualTo(200);
        assertThat(browser.get("/login").header("RateLimit-Remaining")).isEqualTo("2");
        ApiResponse failed = browser.signIn("nobody_here", "wrong password");
        assertThat(failed.status()).as("a GET and a POST of /login").isEqualTo(302);
        assertThat(failed.header("RateLimit-Remaining")).isEqualTo("0");
        ApiResponse refused = browser.get("/login");

        assertTooMany(refused);
        assertThat(refused.contentType()).as("a page's refusal is a page").startsWith("text/html");
        assertThat(refused.header("RateLimit-Limit")).isEqualTo("4");
    }

    @Test
    void theOAuthEndpointsAreLimitedPerAddressApartFromSignIn() {
        forgetBuckets();

        assertLimitedAfter(3, () -> get("/.well-known/oauth-authorization-server"), 200);
        ApiResponse fromAnApp = api.send(api.builder("/oauth2/token", null).header("Content-Type", "application/x-www-form-urlencoded")
                .header("Origin", "https://spa.example")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=refresh_token&refresh_token=x&client_id=nobody")));
        assertTooMany(fromAnApp);
        assertThat(fromAnApp.header("Access-Control-Allow-Origin")).as("a browser app can read the 429").isNotNull();
        assertThat(fromAnApp.header("Access-Control-Allow-Credentials")).isNull();
        assertThat(get("/login").status()).as("browsers' sign-in has its own budget").isEqualTo(200);
    }

    @Test
    void webSubCallbacksAreLimitedPerAddressApartFromPages() {
        forgetBuckets();

        assertLimitedAfter(3, () -> get("/websub/999999?hub.mode=subscribe&hub.topic=x&hub.challenge=c"), 404);
        assertThat(get("/signup").status()).as("hubs do not use up the browsers' budget").isEqualTo(200);
    }

    @Test
    void googleReaderSignInIsLimitedPerAddress() {
        forgetBuckets();

        assertLimitedAfter(4, () -> api.send(api.builder("/accounts/ClientLogin", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Email=nobody&Passwd=wrong"))), 401);
    }

    @Test
    void pagesCountPerSignedInPersonElsePerAddress() {
        TestUser bea = newUserWithEmptyBuckets();
        OAuthFlow.Browser browser = new OAuthFlow(port).browser();
        assertThat(browser.signIn(bea.username(), bea.password()).status()).isEqualTo(302);

        assertLimitedAfter(3, () -> browser.get("/settings"), 200);
        assertThat(browser.get("/settings").contentType()).as("a page's refusal is a page").startsWith("text/html");
        assertThat(get("/signup").status()).as("the address has its own bucket").isEqualTo(200);
    }

    @Test
    void madeUpFeverKeysCountAgainstTheAddressWhileARealOneHasItsOwnBucket() throws Exception {
        TestUser cat = newUser();
        String realKey = feverKey(cat);
        forgetBuckets();

        for (int i = 0; i < 3; i++) {
            ApiResponse guessed = fever("0123456789abcdef0123456789abc" + i);
            assertThat(guessed.json().path("auth").asInt()).isZero();
            assertThat(guessed.header("RateLimit-Limit")).as("the address's budget").isEqualTo("3");
        }

        assertTooMany(fever("ffffffffffffffffffffffffffffffff"));
        ApiResponse real = fever(realKey);
        assertThat(real.status()).isEqualTo(200);
        assertThat(real.json().path("auth").asInt()).isEqualTo(1);
        assertThat(real.header("RateLimit-Limit")).isEqualTo("1000");
    }

    @Test
    void madeUpGoogleReaderAuthValuesCountAgainstTheAddressWhileARealOneHasItsOwnBucket() {
        TestUser dee = newUser();
        String token = api.createToken(dee.username(), dee.password(), "reader", "read");
        forgetBuckets();
        ApiResponse login = api.send(api.builder("/accounts/ClientLogin", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Email=" + dee.username() + "&Passwd=" + token)));
        String auth = login.body().lines().filter(line -> line.startsWith("Auth=")).findFirst().orElseThrow().substring(5);

        for (int i = 0; i < 3; i++) {
            assertThat(reader("trg_made_up_" + i).status()).isEqualTo(401);
        }

        assertTooMany(reader("trg_made_up_again"));
        assertTooMany(reader("no prefix at all"));
        ApiResponse real = reader(auth);
        assertThat(real.status()).isEqualTo(200);
        assertThat(real.header("RateLimit-Limit")).isEqualTo("1000");
    }

    @Test
    void aDeadTokenIsA401InvalidTokenEvenOverTheAddressLimit() {
        TestUser eve = newUser();
        String doomed = api.createToken(eve.username(), eve.password(), "doomed", "read");
        String id = api.get("/api/v1/tokens", eve.token()).json().valueStream()
                .filter(t -> t.path("name").asString().equals("doomed")).findFirst().orElseThrow().path("id").asString();
        assertThat(api.delete("/api/v1/tokens/" + id, eve.token()).status()).isEqualTo(204);
        forgetBuckets();
        for (int i = 0; i < 3; i++) {
            assertThat(api.get("/api/v1/me", null).status()).isEqualTo(401);
        }
        assertTooMany(api.get("/api/v1/me", null));

        ApiResponse dead = api.get("/api/v1/me", doomed);

        assertThat(dead.status()).as(dead.toString()).isEqualTo(401);
        assertThat(dead.header("WWW-Authenticate")).startsWith("Bearer error=\"invalid_token\"");
        assertThat(dead.contentType()).startsWith("application/problem+json");
        assertThat(dead.header("RateLimit-Remaining")).as("it still counts").isEqualTo("0");
        assertTooMany(api.get("/api/v1/me", null));
    }

    private void assertLimitedAfter(int allowed, Supplier<ApiResponse> request, int status) {
        for (int i = 0; i < allowed; i++) {
            ApiResponse answer = request.get();
            assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
            assertThat(answer.header("RateLimit-Remaining")).isEqualTo(Integer.toString(allowed - 1 - i));
            assertThat(answer.header("RateLimit-Reset")).isNotBlank();
        }
        assertTooMany(request.get());
    }

    private static void assertTooMany(ApiResponse refused) {
        assertThat(refused.status()).as(refused.toString()).isEqualTo(429);
        if (refused.contentType().startsWith("text/html")) {
            // A browser's page navigation gets the site's error page (issue 48), with the same headers.
            assertThat(refused.body()).contains("429");
        } else {
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.json().path("status").asInt()).isEqualTo(429);
        }
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 300L);
        assertThat(refused.header("RateLimit-Remaining")).isEqualTo("0");
        assertThat(refused.header("RateLimit-Limit")).isNotBlank();
        assertThat(refused.header("RateLimit-Reset")).isNotBlank();
    }

    private ApiResponse get(String path) {
        return api.send(api.builder(path, null).header("Accept", "*/*").GET());
    }

    private ApiResponse fever(String key) {
        return api.send(api.builder("/fever/?api", null).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("api_key=" + key)));
    }

    private ApiResponse reader(String auth) {
        return api.send(api.builder("/reader/api/0/user-info", null).header("Authorization", "GoogleLogin auth=" + auth).GET());
    }

    private String feverKey(TestUser user) throws Exception {
        ApiResponse created = api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(user.username(), user.password()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Reeder\",\"scopes\":[\"read\",\"write\"],\"fever\":true}")));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String secret = created.json().path("token").asString();
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
                .digest((user.username() + ":" + secret).getBytes(StandardCharsets.UTF_8)));
    }

    private TestUser newUser() {
        forgetBuckets();
        return api.newUser("pp");
    }

    private TestUser newUserWithEmptyBuckets() {
        TestUser user = newUser();
        forgetBuckets();
        return user;
    }

    private void forgetBuckets() {
        Set<String> keys = redis.keys("ratelimit:*");
        if (keys != null && !keys.isEmpty()) {
            redis.delete(keys);
        }
    }
}
