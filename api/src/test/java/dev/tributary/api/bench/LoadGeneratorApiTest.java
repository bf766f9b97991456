package dev.tributary.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The benchmark's load generator against the real app: bounded by its request cap, every answer counted. */
@ApiTest
class LoadGeneratorApiTest {

    /** Far longer than the capped runs take: they end at the cap, the window only bounds them. */
    private static final Duration WINDOW = Duration.ofSeconds(120);

    @LocalServerPort int port;
    private ApiClient api;
    private InetSocketAddress server;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        server = new InetSocketAddress("127.0.0.1", port);
    }

    @Test
    void everyRequestUpToTheCapIsAnsweredOnKeptAliveConnections() {
        TestUser alice = api.newUser("load");
        TestUser bob = api.newUser("load");

        LoadGenerator.Result result = LoadGenerator.bearer(server, List.of(alice.token(), bob.token()))
                .run("/api/v1/me", 4, Duration.ZERO, WINDOW, 200);

        assertThat(result.requests()).isEqualTo(200);
        assertThat(result.errors()).isZero();
        assertThat(result.capped()).isTrue();
        assertThat(result.latencies().count()).isEqualTo(200);
        assertThat(result.latencies().quantileMillis(0.99)).isPositive();
        assertThat(result.averageBodyBytes()).as("a /me body").isGreaterThan(50);
    }

    @Test
    void aConnectionTheServerClosesIsReopened() {
        TestUser alice = api.newUser("load");

        // One connection, more requests than Tomcat serves on one keep-alive connection (100 by default).
        LoadGenerator.Result result = LoadGenerator.bearer(server, List.of(alice.token())).run("/api/v1/me", 1, Duration.ZERO,
                WINDOW, 250);

        assertThat(result.requests()).isEqualTo(250);
        assertThat(result.errors()).isZero();
        assertThat(result.reconnects()).as("the server closed the connection (Connection: close) and it was reopened")
                .isPositive();
    }

    @Test
    void refusedRequestsAreCountedByStatusAndHaveNoLatency() {
        LoadGenerator.Result result = LoadGenerator.bearer(server, List.of("trb_not-a-real-token"))
                .run("/api/v1/me", 2, Duration.ZERO, WINDOW, 50);

        assertThat(result.requests()).isZero();
        assertThat(result.failedStatuses()).isEqualTo(Map.of(401, 50L));
        assertThat(result.errors()).isEqualTo(50);
        assertThat(result.latencies().count()).isZero();
    }

    @Test
    void theBaselineEndpointExistsOnlyInTheBenchmarksOwnContext() {
        TestUser alice = api.newUser("load");

        assertThat(api.get(ConstantController.PATH, alice.token()).status()).isEqualTo(404);
    }
}
