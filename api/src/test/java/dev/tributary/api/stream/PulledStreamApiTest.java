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
 * channel, heard by every follower's stream) and their deletion, as a pushed entry's; a pulled
 * source followed or left while the stream is open is heard, or no longer heard, at once.
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

    @Test
    void aPulledSourceFollowedOrLeftWhileTheStreamIsOpenIsHeardOrNotAtOnce() {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser dora = api.newUser("pstreamd");
        long big = deliveries.feed();
        for (String name : java.util.List.of("pstreame", "pstreamf", "pstreamg")) {
            deliveries.follow(api.newUser(name), big);
        }
        long pushed = deliveries.feed();
        deliveries.follow(dora, pushed);
        try (SseConnection stream = SseConnection.open(api.url("/api/v1/streaming/home"), dora.token(), null)) {
            stream.awaitNamed("unread");
            deliveries.follow(dora, big);
            stream.awaitNamed("unread"); // the follow's counts: the stream has heard of it and listens to the source
            long first = deliveries.publish(big, entry(MediaType.TEXT)).getFirst();
            assertThat(stream.awaitNamed("item").id()).as("followed after the stream opened").isEqualTo(String.valueOf(first));
            stream.awaitNamed("unread");

            subscriptions.unsubscribe(dora.numericId(), big);
            stream.awaitNamed("unread"); // the unfollow's counts: the stream no longer listens to the source
            deliveries.publish(big, entry(MediaType.TEXT));
            long marker = deliveries.publish(pushed, entry(MediaType.TEXT)).getFirst();
            assertThat(stream.awaitNamed("item").id()).as("the left source's item is not announced before the next pushed one")
                    .isEqualTo(String.valueOf(marker));
        }
    }

    @Test
    void aPulledItemTheFollowersMediaFilterDoesNotTakeIsNotAnnouncedToThem() {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser erin = api.newUser("pstreamh");
        long big = deliveries.feed();
        for (String name : java.util.List.of("pstreami", "pstreamj", "pstreamk")) {
            deliveries.follow(api.newUser(name), big);
        }
        subscriptions.subscribe(erin.numericId(), big, java.util.List.of(MediaType.IMAGE));
        try (SseConnection stream = SseConnection.open(api.url("/api/v1/streaming/home"), erin.token(), null)) {
            stream.awaitNamed("unread");
            deliveries.publish(big, entry(MediaType.TEXT));
            long image = deliveries.publish(big, entry(MediaType.IMAGE)).getFirst();
            assertThat(stream.awaitNamed("item").id()).as("the text item is outside erin's filter, as in her timeline")
                    .isEqualTo(String.valueOf(image));
        }
    }
}
