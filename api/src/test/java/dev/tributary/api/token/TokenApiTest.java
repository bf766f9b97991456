package dev.tributary.api.token;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;

@ApiTest
class TokenApiTest {

    @LocalServerPort int port;
    @Autowired StringRedisTemplate redis;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    private ApiResponse createToken(String authorization, String body) {
        return api.send(api.builder("/api/v1/tokens", null).header("Authorization", authorization)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    @Test
    void aTokenIsShownOnceAndItsHashIsWhatIsListed() {
        TestUser alice = api.newUser("tok");

        ApiResponse created = createToken(ApiClient.basic(alice.username(), alice.password()),
                "{\"name\": \"cli\", \"scopes\": [\"read\"]}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().path("token").asString()).startsWith("trb_");
        assertThat(created.json().path("scopes").findValuesAsString("")).isEmpty();
        assertThat(created.json().path("scopes").toString()).isEqualTo("[\"read\"]");
        ApiResponse listed = api.get("/api/v1/tokens", alice.token());
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().findValuesAsString("name")).contains("cli", "test");
        assertThat(listed.body()).doesNotContain(created.json().path("token").asString());
    }

    @Test
    void aReadOnlyTokenReadsButCannotWrite() {
        TestUser bob = api.newUser("ro");
        String readOnly = api.createToken(bob.username(), bob.password(), "reader", "read");

        assertThat(api.get("/api/v1/me", readOnly).status()).isEqualTo(200);
        ApiResponse write = api.post("/api/v1/me/feed_token", readOnly, null);

        assertThat(write.status()).isEqualTo(403);
        assertThat(write.header("WWW-Authenticate")).contains("insufficient_scope");
        assertThat(write.contentType()).startsWith("application/problem+json");
    }

    @Test
    void aWriteOnlyTokenCannotRead() {
        TestUser carol = api.newUser("wo");
        String writeOnly = api.createToken(carol.username(), carol.password(), "writer", "write");

        assertThat(api.get("/api/v1/me", writeOnly).status()).isEqualTo(403);
    }

    @Test
    void revokingATokenStopsItAtOnce() {
        TestUser dan = api.newUser("rev");
        String doomed = api.createToken(dan.username(), dan.password(), "doomed", "read", "write");
        assertThat(api.get("/api/v1/me", doomed).status()).isEqualTo(200);
        String id = api.get("/api/v1/tokens", dan.token()).json().valueStream()
                .filter(t -> t.path("name").asString().equals("doomed")).findFirst().orElseThrow().path("id").asString();

        assertThat(api.delete("/api/v1/tokens/" + id, dan.token()).status()).isEqualTo(204);

        assertThat(api.get("/api/v1/me", doomed).status()).isEqualTo(401);
        assertThat(api.delete("/api/v1/tokens/" + id, dan.token()).status()).isEqualTo(404);
    }

    @Test
    void nobodyRevokesAnotherPersonsToken() {
        TestUser erin = api.newUser("own");
        TestUser mallory = api.newUser("mal");
        String erinsTokenId = api.get("/api/v1/tokens", erin.token()).json().get(0).path("id").asString();

        assertThat(api.delete("/api/v1/tokens/" + erinsTokenId, mallory.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/tokens", mallory.token()).body()).doesNotContain(erinsTokenId);
        assertThat(api.get("/api/v1/me", erin.token()).status()).isEqualTo(200);
    }

    @Test
    void wrongPasswordsAre401AndThenTheAccountIsThrottled() {
        TestUser frank = api.newUser("thr");
        String body = "{\"name\": \"x\", \"scopes\": [\"read\"]}";

        for (int i = 0; i < 5; i++) {
            assertThat(createToken(ApiClient.basic(frank.username(), "wrong-" + i), body).status()).isEqualTo(401);
        }
        ApiResponse throttled = createToken(ApiClient.basic(frank.username(), frank.password()), body);

        assertThat(throttled.status()).isEqualTo(429);
        assertThat(Long.parseLong(throttled.header("Retry-After"))).isPositive();
        assertThat(throttled.contentType()).startsWith("application/problem+json");
    }

    @Test
    void aWrongOrMissingBasicPasswordIsChallenged() {
        TestUser ivy = api.newUser("chal");
        String body = "{\"name\": \"x\", \"scopes\": [\"read\"]}";

        for (ApiResponse refused : List.of(createToken(ApiClient.basic(ivy.username(), "not the password"), body),
                api.post("/api/v1/tokens", null, body), createToken("Basic !!!notbase64", body))) {
            assertThat(refused.status()).as(refused.toString()).isEqualTo(401);
            assertThat(refused.header("WWW-Authenticate")).startsWith("Basic realm=");
            assertThat(refused.contentType()).startsWith("application/problem+json");
        }
    }

    @Test
    void theCredentialsAreCheckedBeforeTheBody() {
        TestUser jo = api.newUser("first");

        ApiResponse badBodyNoLogin = createToken(ApiClient.basic(jo.username(), "wrong"), "{\"name\": \"\", \"scopes\": []}");
        ApiResponse brokenJsonNoLogin = api.post("/api/v1/tokens", null, "{\"name\": ");
        ApiResponse badBodyGoodLogin = createToken(ApiClient.basic(jo.username(), jo.password()), "{\"name\": \"\", \"scopes\": []}");

        assertThat(badBodyNoLogin.status()).as(badBodyNoLogin.toString()).isEqualTo(401);
        assertThat(brokenJsonNoLogin.status()).as(brokenJsonNoLogin.toString()).isEqualTo(401);
        assertThat(badBodyGoodLogin.status()).as(badBodyGoodLogin.toString()).isEqualTo(400);
    }

    @Test
    void badTokenRequestsAreClear4xx() {
        TestUser gina = api.newUser("bad");
        String basic = ApiClient.basic(gina.username(), gina.password());

        assertThat(createToken(basic, "{\"name\": \"x\", \"scopes\": [\"admin\"]}").status()).isEqualTo(400);
        assertThat(createToken(basic, "{\"name\": \"x\", \"scopes\": []}").status()).isEqualTo(400);
        assertThat(createToken(basic, "{\"name\": \"" + "n".repeat(101) + "\", \"scopes\": [\"read\"]}").status()).isEqualTo(400);
        assertThat(createToken("Basic !!!notbase64", "{\"name\": \"x\", \"scopes\": [\"read\"]}").status()).isEqualTo(401);
        assertThat(createToken("Bearer " + gina.token(), "{\"name\": \"x\", \"scopes\": [\"read\"]}").status()).isEqualTo(401);
        assertThat(api.delete("/api/v1/tokens/not-a-number", gina.token()).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/tokens/99999999999999999999999", gina.token()).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/accounts", null, Map.of()).status()).isEqualTo(400);
    }

    @Test
    void parallelWrongGuessesReachThePasswordCheckAtMostTheLimitTimes() throws Exception {
        TestUser hana = api.newUser("par");
        String body = "{\"name\": \"x\", \"scopes\": [\"read\"]}";
        int guesses = 24;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ApiResponse>> answers;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            answers = java.util.stream.IntStream.range(0, guesses).mapToObj(i -> pool.submit(() -> {
                start.await();
                return createToken(ApiClient.basic(hana.username(), "wrong-" + i), body);
            })).toList();
            start.countDown();
        }
        try {
            List<Integer> statuses = answers.stream().map(TokenApiTest::status).toList();

            // Only a guess that reached the password check is answered 401; the rest are throttled first.
            assertThat(statuses).filteredOn(s -> s == 401).as("guesses checked").hasSize(5);
            assertThat(statuses).filteredOn(s -> s == 429).hasSize(guesses - 5);
        } finally {
            redis.delete("login:throttle:addr:127.0.0.1");
        }
    }

    @Test
    void aHugeUsernameIsRefusedAndKeyedByAFixedSizeHash() {
        String huge = "a".repeat(4_000);

        ApiResponse refused = createToken(ApiClient.basic(huge, "whatever-1"), "{\"name\": \"x\", \"scopes\": [\"read\"]}");

        try {
            assertThat(refused.status()).isEqualTo(401);
            assertThat(redis.keys("login:throttle:user:#*")).isNotEmpty().allSatisfy(key -> assertThat(key).hasSizeLessThan(100));
            assertThat(redis.keys("login:throttle:user:aaaa*")).isEmpty();
        } finally {
            redis.opsForHash().increment("login:throttle:addr:127.0.0.1", "failed", -1);
        }
    }

    private static int status(Future<ApiResponse> answer) {
        try {
            return answer.get().status();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
