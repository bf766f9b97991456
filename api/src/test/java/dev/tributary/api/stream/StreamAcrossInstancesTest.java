package dev.tributary.api.stream;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;

/**
 * Streams served by a second app instance (sharing this JVM's database and Redis) with a short
 * heartbeat and two streams per person; it runs no fan-out, so what its streams show was
 * announced by the first instance's workers.
 */
@ApiTest
class StreamAcrossInstancesTest {

    private static final DefaultRedisScript<Long> NUMSUB =
            new DefaultRedisScript<>("return redis.call('PUBSUB', 'NUMSUB', KEYS[1])[2]", Long.class);

    private static ConfigurableApplicationContext second;
    private static ApiClient secondApi;

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired StringRedisTemplate redis;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeAll
    static void secondInstance() {
        // Arguments, not default properties: those would lose to application.yaml's values.
        second = new SpringApplicationBuilder(TributaryApplication.class)
                .run("--server.port=0", "--server.address=127.0.0.1", "--tributary.roles=api",
                        "--tributary.api.stream.heartbeat=200ms", "--tributary.api.stream.per-person=2");
        secondApi = new ApiClient(Integer.parseInt(second.getEnvironment().getRequiredProperty("local.server.port")));
    }

    @AfterAll
    static void stopSecond() {
        second.close();
    }

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    @Test
    void anEntryPublishedOnOneInstanceReachesAStreamOnAnother() {
        TestUser alice = api.newUser("across");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        try (SseConnection stream = open(alice)) {
            stream.awaitNamed("unread");

            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();

            assertThat(stream.awaitNamed("item").id()).isEqualTo(String.valueOf(id));
        }
    }

    @Test
    void anIdleStreamSendsHeartbeats() {
        TestUser bob = api.newUser("beat");
        try (SseConnection stream = open(bob)) {
            assertThat(stream.awaitNamed(":comment").data()).isEqualTo("heartbeat");
            assertThat(stream.awaitNamed(":comment").data()).isEqualTo("heartbeat");
        }
    }

    @Test
    void aThirdStreamClosesTheOldestAndAGoneClientLeavesNoSubscription() {
        TestUser carol = api.newUser("many");
        long feed = deliveries.feed();
        deliveries.follow(carol, feed);
        HomeStreams streams = second.getBean(HomeStreams.class);
        try (SseConnection oldest = open(carol); SseConnection middle = open(carol); SseConnection newest = open(carol)) {
            oldest.awaitEnd();
            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
            assertThat(middle.awaitNamed("item").id()).isEqualTo(String.valueOf(id));
            assertThat(newest.awaitNamed("item").id()).isEqualTo(String.valueOf(id));
            assertThat(subscribers(carol)).isEqualTo(1);
        }
        // The clients went away without a word: the next heartbeat finds out and lets go of the channel.
        Await.until("the channel to be let go", () -> subscribers(carol) == 0);
        Await.until("no open streams", () -> streams.openStreams() == 0);
    }

    private SseConnection open(TestUser user) {
        SseConnection stream = SseConnection.open(secondApi.url("/api/v1/streaming/home"), user.token(), null);
        assertThat(stream.status()).isEqualTo(200);
        return stream;
    }

    /** How many Redis connections listen to the person's channel (both instances share the one Redis). */
    private long subscribers(TestUser user) {
        Long count = redis.execute(NUMSUB, List.of(InboxEvent.channel(user.numericId())));
        return count == null ? 0 : count;
    }
}
