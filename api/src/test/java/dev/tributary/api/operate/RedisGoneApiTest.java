package dev.tributary.api.operate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.TestUser;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import redis.embedded.RedisServer;

/**
 * Issue 52, break 6: a Redis that dies is a prompt 503, not a minute's hang. The node's Redis
 * here is one this test runs and kills (the JVM's shared embedded one is supervised and would
 * come back at once): every request that needs Redis answers the store's 503 with Retry-After,
 * readiness says the node is not ready, and both recover when Redis is back on its port.
 */
class RedisGoneApiTest {

    /** Far below Lettuce's old 60 s command timeout, far above the 1 s one: a request that waits the old way fails here. */
    private static final Duration PROMPT = Duration.ofSeconds(20);

    private RedisServer redis;
    private ConfigurableApplicationContext app;

    @AfterEach
    void stop() throws IOException {
        if (app != null) {
            app.close();
        }
        if (redis != null) {
            redis.stop();
        }
    }

    @Test
    void requestsAnswer503PromptlyReadinessFailsAndBothRecover() throws IOException {
        int redisPort = freePort();
        redis = RedisServer.newRedisServer().port(redisPort).bind("127.0.0.1").setting("save \"\"").build();
        redis.start();
        app = new SpringApplicationBuilder(TributaryApplication.class)
                .properties("spring.data.redis.url=redis://127.0.0.1:" + redisPort, "server.address=127.0.0.1", "server.port=0",
                        "management.server.port=0")
                .run();
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        ApiClient api = new ApiClient(port);
        TestUser alice = api.newUser("redisgone");
        TestUser bob = api.newUser("redisgoneb");
        assertThat(api.post("/api/v1/subscriptions", alice.token(), Map.of("user", bob.username())).status()).isEqualTo(201);
        for (int i = 0; i < 3; i++) {
            assertThat(api.post("/api/v1/posts", bob.token(), Map.of("text", "post " + i)).status()).isEqualTo(201);
        }
        Await.until("bob's three posts unread at alice's", () -> api.get("/api/v1/unread", alice.token()).json().path("total").asLong() == 3);
        assertThat(api.send(api.builder("/readyz", null)).status()).isEqualTo(200);

        redis.stop();

        ApiResponse refused = api.send(api.builder("/api/v1/unread", alice.token()).timeout(PROMPT));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.header("Retry-After")).isNotBlank();
        ApiResponse readiness = api.send(api.builder("/readyz", null).header("Accept", "application/json").timeout(PROMPT));
        assertThat(readiness.status()).isEqualTo(503);

        redis = RedisServer.newRedisServer().port(redisPort).bind("127.0.0.1").setting("save \"\"").build();
        redis.start();
        Await.until("the node serves again once Redis is back", Duration.ofSeconds(60),
                () -> api.send(api.builder("/api/v1/unread", alice.token()).timeout(PROMPT)).status() == 200);
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong())
                .as("counts rebuilt from MySQL, exact after Redis came back empty").isEqualTo(3);
        assertThat(api.send(api.builder("/readyz", null).timeout(PROMPT)).status()).isEqualTo(200);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
