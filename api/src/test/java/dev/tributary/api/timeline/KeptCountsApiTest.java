package dev.tributary.api.timeline;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Unread counts are kept per node between requests ({@link KeptCounts}): kept counts are served
 * without the counters being read, and every change to them (a delivery, a read mark, a folder)
 * shows at the very next request.
 */
@ApiTest
class KeptCountsApiTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired StringRedisTemplate redis;
    @Autowired MeterRegistry meters;
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
        assertThat(counts.header("Content-Type")).startsWith("application/json");
        return counts.json();
    }

    private String counterHash(TestUser reader) {
        Set<String> hashes = redis.keys("tributary:unread:*:" + reader.numericId());
        assertThat(hashes).hasSize(1);
        return hashes.iterator().next();
    }

    @Test
    void keptCountsAreServedUntilTheirVersionMovesAndEveryChangeShowsAtTheNextRequest() {
        TestUser alice = api.newUser("keptcounts");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        List<Long> ids = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT), entry(MediaType.TEXT));
        assertThat(unread(alice).path("total").asLong()).isEqualTo(2);
        JsonNode kept = unread(alice);
        assertThat(kept.path("total").asLong()).isEqualTo(2);

        // Behind the node's back (no stamp moves): a kept answer does not read the counters.
        String field = "s" + feed + ":" + MediaType.TEXT.bit();
        redis.opsForHash().increment(counterHash(alice), field, 5);
        assertThat(unread(alice)).as("kept").isEqualTo(kept);
        redis.opsForHash().increment(counterHash(alice), field, -5);

        assertThat(api.post("/api/v1/items/" + ids.getFirst() + "/read", alice.token(), null).status()).isEqualTo(204);
        assertThat(unread(alice).path("total").asLong()).as("a read mark").isEqualTo(1);

        deliveries.deliver(feed, List.of(alice), entry(MediaType.IMAGE));
        JsonNode delivered = unread(alice);
        assertThat(delivered.path("total").asLong()).as("a delivery").isEqualTo(2);
        assertThat(delivered.path("by_media").path("image").asLong()).isEqualTo(1);

        long folder = Long.parseLong(api.post("/api/v1/folders", alice.token(), Map.of("name", "News")).json().path("id").asString());
        String subscription = null;
        for (JsonNode each : api.get("/api/v1/subscriptions", alice.token()).json()) {
            if (each.path("source").path("id").asString().equals(String.valueOf(feed))) {
                subscription = each.path("id").asString();
            }
        }
        assertThat(api.send("PATCH", "/api/v1/subscriptions/" + subscription, alice.token(),
                Map.of("folder_ids", List.of(String.valueOf(folder))), "application/json")
                .status()).isEqualTo(200);
        assertThat(unread(alice).path("by_folder").path(String.valueOf(folder)).asLong()).as("a folder filed").isEqualTo(2);
    }

    @Test
    void onePersonsKeptCountsAreNeverAnothersAndARedisThatLostItsKeysBringsNoneBack() {
        TestUser alice = api.newUser("keptmine");
        TestUser bob = api.newUser("keptyours");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        deliveries.follow(bob, feed);
        long id = deliveries.deliver(feed, List.of(alice, bob), entry(MediaType.TEXT)).getFirst();
        unread(alice);
        unread(bob);
        assertThat(api.post("/api/v1/items/" + id + "/read", bob.token(), null).status()).isEqualTo(204);
        assertThat(unread(alice).path("total").asLong()).isEqualTo(1);
        assertThat(unread(bob).path("total").asLong()).isZero();

        redis.execute((RedisCallback<Object>) connection -> {
            connection.serverCommands().flushAll();
            return null;
        });
        assertThat(api.post("/api/v1/items/" + id + "/read", alice.token(), null).status()).isEqualTo(204);

        assertThat(unread(alice).path("total").asLong()).isZero();
        assertThat(unread(bob).path("total").asLong()).isZero();
    }
    @Test
    void aKeptPollReadsItsVersionWithItsRateLimitCountOnASingleRedisAndApartOnACluster() {
        boolean cluster = redis.getConnectionFactory() instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
        String how = cluster ? "apart" : "along";
        String other = cluster ? "along" : "apart";
        TestUser alice = api.newUser("keptalong");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        long id = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();
        JsonNode kept = unread(alice);
        assertThat(unread(alice)).isEqualTo(kept);
        int polls = 40;
        double before = served("kept", how);
        double otherwise = served("kept", other) + served("read", other);

        for (int i = 0; i < polls; i++) {
            assertThat(unread(alice)).isEqualTo(kept);
        }

        assertThat(served("kept", how) - before).as("each poll kept, its version read " + how).isEqualTo(polls);
        assertThat(served("kept", other) + served("read", other)).as("none read " + other).isEqualTo(otherwise);
        assertThat(api.post("/api/v1/markers", alice.token(), Map.of("up_to_id", Long.toString(id))).status())
                .isEqualTo(200);
        assertThat(unread(alice).path("total").asLong()).as("a change shows at the next poll").isZero();
    }

    private double served(String outcome, String version) {
        return meters.get("tributary.api.unread.cache.reads").tag("outcome", outcome).tag("version", version).counter().count();
    }
}
