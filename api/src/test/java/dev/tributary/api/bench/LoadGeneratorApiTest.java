package dev.tributary.api.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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
    void aConnectionIsKeptAliveFarPastTomcatsDefaultOfAHundredRequests() {
        TestUser alice = api.newUser("load");

        // server.tomcat.max-keep-alive-requests: a polling app is not made to reconnect every hundred calls.
        LoadGenerator.Result result = LoadGenerator.bearer(server, List.of(alice.token())).run("/api/v1/me", 1, Duration.ZERO,
                WINDOW, 250);

        assertThat(result.requests()).isEqualTo(250);
        assertThat(result.errors()).isZero();
        assertThat(result.reconnects()).isZero();
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
    void aPacedRunSendsNoMoreThanItsSchedule() {
        TestUser alice = api.newUser("load");

        // 4 connections at 20 requests/s in all: each sends every 200 ms, so a one-second window holds at most 5 each.
        LoadGenerator.Result result = LoadGenerator.bearer(server, List.of(alice.token()))
                .runPaced("/api/v1/me", "application/json", 4, 20, Duration.ZERO, Duration.ofSeconds(1), 1_000);

        assertThat(result.requests()).isBetween(1L, 20L);
        assertThat(result.errors()).isZero();
        assertThat(result.capped()).isFalse();
    }

    @Test
    void aPacedRequestsLatencyCountsFromWhenItWasDueNotWhenItWasSent() {
        TestUser alice = api.newUser("load");

        // One connection asked for a million requests a second falls behind at once: request k was due k µs
        // after the start but goes only when the answers before it are in, so its latency is nearly the time
        // since the start. Measured from the send, every latency would be one round trip.
        LoadGenerator.Result result = LoadGenerator.bearer(server, List.of(alice.token()))
                .runPaced("/api/v1/me", "application/json", 1, 1_000_000, Duration.ZERO, WINDOW, 200);

        assertThat(result.requests()).isEqualTo(200);
        double runMillis = result.seconds() * 1000;
        assertThat(result.latencies().quantileMillis(0.99)).as("the 198th of 200 requests waited for nearly all before it")
                .isGreaterThan(runMillis / 2);
        assertThat(result.latencies().quantileMillis(0.50)).isGreaterThan(result.latencies().quantileMillis(0.01) * 10);
    }

    @Test
    void theGeneratorInAProcessOfItsOwnCountsAsTheOneInThisJvm() {
        TestUser alice = api.newUser("load");

        try (LoadProcess process = LoadProcess.start()) {
            Load load = process.generator(server, List.of("Authorization: Bearer " + alice.token()));
            LoadGenerator.Result answered = load.run("/api/v1/me", "application/json", 3, Duration.ZERO, WINDOW, 120);
            LoadGenerator.Result refused = process.generator(server, List.of("Authorization: Bearer trb_not-a-real-token"))
                    .run("/api/v1/me", "application/json", 2, Duration.ZERO, WINDOW, 30);
            LoadGenerator.Result late = load.runPaced("/api/v1/me", "application/json", 1, 1_000_000, Duration.ZERO, WINDOW, 100);

            assertThat(answered.requests()).isEqualTo(120);
            assertThat(answered.latencies().count()).isEqualTo(120);
            assertThat(answered.errors()).isZero();
            assertThat(answered.capped()).isTrue();
            assertThat(answered.averageBodyBytes()).as("a /me body").isGreaterThan(50);
            assertThat(refused.failedStatuses()).isEqualTo(Map.of(401, 30L));
            assertThat(refused.latencies().count()).isZero();
            assertThat(late.latencies().quantileMillis(0.99)).as("paced latencies count from the due time there too")
                    .isGreaterThan(late.seconds() * 1000 / 2);
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> load.runPaced("/api/v1/me", "application/json", 1, 0, Duration.ZERO, WINDOW, 1));
        }
    }

    @Test
    void aPacedRunNeedsARate() {
        LoadGenerator generator = LoadGenerator.bearer(server, List.of("trb_x"));

        assertThatIllegalArgumentException()
                .isThrownBy(() -> generator.runPaced("/api/v1/me", "application/json", 1, 0, Duration.ZERO, WINDOW, 1));
    }

    @Test
    void theBaselineEndpointExistsOnlyInTheBenchmarksOwnContext() {
        TestUser alice = api.newUser("load");

        assertThat(api.get(ConstantController.PATH, alice.token()).status()).isEqualTo(404);
    }
}
