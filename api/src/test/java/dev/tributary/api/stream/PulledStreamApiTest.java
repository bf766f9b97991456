package dev.tributary.api.stream;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.json.JsonMapper;

/**
 * The live stream announces a pulled source's items (one PUBLISH per item on the source's
 * channel, heard by every follower's stream) and their deletion, as a pushed entry's.
 */
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "tributary.crawler.allow-private=127.0.0.0/8",
                "tributary.fanout.pull-threshold=3"})
class PulledStreamApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;

    @Test
    void aPulledItemAndItsDeletionReachEveryFollowersStream() {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("pstreama");
        TestUser bob = api.newUser("pstreamb");
        long big = deliveries.feed();
        deliveries.follow(alice, big);
        deliveries.follow(bob, big);
        deliveries.follow(api.newUser("pstreamc"), big);
        try (SseConnection aliceStream = SseConnection.open(api.url("/api/v1/streaming/home"), alice.token(), null);
                SseConnection bobStream = SseConnection.open(api.url("/api/v1/streaming/home"), bob.token(), null)) {
            aliceStream.awaitNamed("unread");
            bobStream.awaitNamed("unread");
            long id = deliveries.publish(big, entry(MediaType.TEXT)).getFirst();
            for (SseConnection stream : java.util.List.of(aliceStream, bobStream)) {
                SseConnection.Event item = stream.awaitNamed("item");
                assertThat(item.id()).isEqualTo(String.valueOf(id));
                assertThat(JSON.readTree(item.data()).path("source").path("id").asString()).isEqualTo(String.valueOf(big));
            }
            assertThat(publisher.tombstone(id)).isTrue();
            assertThat(aliceStream.awaitNamed("delete").data()).isEqualTo(String.valueOf(id));
        }
    }
}
