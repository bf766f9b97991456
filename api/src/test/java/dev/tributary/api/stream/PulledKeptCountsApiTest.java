package dev.tributary.api.stream;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A follower of pulled sources has their unread counts kept per node like anyone's: kept
 * counts are served without MySQL being read (a read mark written behind the node's back is not
 * seen), and a pulled publish or a read mark shows at the next request. The counts a live stream's
 * render read after a publish are the ones the reader's next poll gets. (Same context as
 * {@link PulledStreamApiTest}.)
 */
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "tributary.crawler.allow-private=127.0.0.0/8",
                "tributary.fanout.pull-threshold=3"})
class PulledKeptCountsApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired JdbcClient jdbc;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    private JsonNode unread(TestUser reader) {
        ApiResponse counts = api.get("/api/v1/unread", reader.token());
        assertThat(counts.status()).isEqualTo(200);
        return counts.json();
    }

    private long pulledSource(TestUser reader, String prefix) {
        return deliveries.pulledFeed(reader, prefix);
    }

    private void readBehindTheNodesBack(TestUser reader, long source, long itemId) {
        readBehindTheNodesBack(jdbc, reader, source, itemId);
    }

    /** Marks the item read as a pulled entry straight in MySQL: no stamp moves, so only a fresh read sees it. */
    static void readBehindTheNodesBack(JdbcClient jdbc, TestUser reader, long source, long itemId) {
        jdbc.sql("INSERT INTO pulled_marks (user_id, source_id, item_id, is_read) VALUES (?, ?, ?, TRUE)")
                .params(reader.numericId(), source, itemId).update();
    }

    private void undo(TestUser reader, long itemId) {
        jdbc.sql("DELETE FROM pulled_marks WHERE user_id = ? AND item_id = ?").params(reader.numericId(), itemId).update();
    }

    @Test
    void aPulledFollowersCountsAreKeptAndEveryPublishOrMarkShowsAtTheNextRequest() {
        TestUser alice = api.newUser("pkepta");
        long big = pulledSource(alice, "pkepta");
        List<Long> ids = deliveries.publish(big, entry(MediaType.TEXT), entry(MediaType.IMAGE));
        unread(alice);
        JsonNode kept = unread(alice);
        assertThat(kept.path("total").asLong()).isEqualTo(2);
        assertThat(kept.path("by_source").path(String.valueOf(big)).asLong()).isEqualTo(2);

        readBehindTheNodesBack(alice, big, ids.getFirst());
        assertThat(unread(alice)).as("kept: MySQL not read").isEqualTo(kept);
        undo(alice, ids.getFirst());

        long third = deliveries.publish(big, entry(MediaType.TEXT)).getFirst();
        assertThat(unread(alice).path("total").asLong()).as("a pulled publish").isEqualTo(3);
        assertThat(api.post("/api/v1/items/" + third + "/read", alice.token(), null).status()).isEqualTo(204);
        JsonNode marked = unread(alice);
        assertThat(marked.path("total").asLong()).as("a pulled item read").isEqualTo(2);
        assertThat(marked.path("by_media").path("text").asLong()).isEqualTo(1);
        assertThat(publisher.tombstone(ids.getLast())).isTrue();
        assertThat(unread(alice).path("total").asLong()).as("a pulled item tombstoned").isEqualTo(1);
    }

    @Test
    void theCountsAStreamRenderedAfterAPublishAreWhatTheReadersNextPollGets() {
        TestUser bob = api.newUser("pkeptb");
        long big = pulledSource(bob, "pkeptb");
        deliveries.publish(big, entry(MediaType.TEXT));
        unread(bob);
        unread(bob);
        try (SseConnection stream = SseConnection.open(api.url("/api/v1/streaming/home"), bob.token(), null)) {
            stream.awaitNamed("unread");
            long id = deliveries.publish(big, entry(MediaType.LINK)).getFirst();
            assertThat(stream.awaitNamed("item").id()).isEqualTo(String.valueOf(id));
            JsonNode announced = JSON.readTree(stream.awaitNamed("unread").data());
            assertThat(announced.path("total").asLong()).isEqualTo(2);

            readBehindTheNodesBack(bob, big, id);
            assertThat(unread(bob)).as("the stream's render kept them: MySQL not read again").isEqualTo(announced);
            undo(bob, id);
        }
    }
}
