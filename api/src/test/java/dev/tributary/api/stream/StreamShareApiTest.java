package dev.tributary.api.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.storage.testing.Await;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * A node's live-stream slots are shared fairly: one person's extra stream makes way by closing
 * their oldest, and one client address (however many accounts it signs up) holds at most its
 * share, past which it gets 429 with Retry-After. Its own context with 2 per address.
 */
@ApiTest
@TestPropertySource(properties = {"tributary.api.stream.per-address=2", "tributary.api.stream.per-person=2",
        "tributary.api.stream.heartbeat=1s"})
class StreamShareApiTest {

    private static final String ADDRESS = "127.0.0.1";

    @LocalServerPort int port;
    @Autowired HomeStreams streams;

    @Test
    void oneAddressHoldsItsShareAndThenGets429UntilOneOfItsStreamsEnds() {
        ApiClient api = new ApiClient(port);
        TestUser first = api.newUser("share");
        TestUser second = api.newUser("share");
        TestUser third = api.newUser("share");
        try (SseConnection one = open(api, first); SseConnection two = open(api, second)) {
            assertThat(one.status()).isEqualTo(200);
            assertThat(two.status()).isEqualTo(200);
            one.awaitNamed("unread");
            two.awaitNamed("unread");

            ApiResponse refused = api.send(api.builder("/api/v1/streaming/home", third.token())
                    .header("Accept", "text/event-stream").GET());

            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.json().path("detail").asString()).contains("live streams");
            assertThat(Long.parseLong(refused.header("Retry-After"))).isPositive();
            assertThat(refused.header("RateLimit-Limit")).isEqualTo("2");
            assertThat(refused.header("RateLimit-Remaining")).isEqualTo("0");
            assertThat(refused.header("RateLimit-Reset")).isNotBlank();
            assertThat(streams.openStreamsFrom(ADDRESS)).isEqualTo(2);

            one.close();
            Await.until("the closed stream's slot to free", () -> streams.openStreamsFrom(ADDRESS) < 2);
            try (SseConnection three = open(api, third)) {
                assertThat(three.status()).as("a freed slot is taken").isEqualTo(200);
                three.awaitNamed("unread");
            }
        }
    }

    @Test
    void aPersonAtTheirOwnLimitStillReconnectsFromAFullAddress() {
        ApiClient api = new ApiClient(port);
        TestUser dan = api.newUser("share");
        Await.until("no streams left from other tests", () -> streams.openStreamsFrom(ADDRESS) == 0);
        try (SseConnection older = open(api, dan); SseConnection newer = open(api, dan)) {
            older.awaitNamed("unread");
            newer.awaitNamed("unread");

            try (SseConnection reconnect = open(api, dan)) {
                assertThat(reconnect.status()).as("their oldest makes way; the address is not over").isEqualTo(200);
                older.awaitEnd();
                assertThat(streams.openStreams(dan.numericId())).isEqualTo(2);
            }
        }
    }

    private SseConnection open(ApiClient api, TestUser user) {
        return SseConnection.open(api.url("/api/v1/streaming/home"), user.token(), null);
    }
}
