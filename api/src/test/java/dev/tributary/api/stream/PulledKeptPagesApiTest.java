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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * A follower of pulled sources has their newest home page kept per node, and a pulled publish
 * patches it (the new items joined to the kept entries) instead of voiding it: a read mark written
 * behind the node's back stays unseen across a publish, while everything a person does (marks,
 * markers, stars, filters) and every tombstone shows at the next request. Racing publishes leave
 * the kept page equal to what MySQL gives. (Same context as {@link PulledStreamApiTest}.)
 */
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "tributary.crawler.allow-private=127.0.0.0/8",
                "tributary.fanout.pull-threshold=3"})
class PulledKeptPagesApiTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired JdbcClient jdbc;
    @Autowired io.micrometer.core.instrument.MeterRegistry meters;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    /** The newest page (kept per node). */
    private JsonNode home(TestUser reader) {
        ApiResponse page = api.get("/api/v1/timelines/home?limit=5", reader.token());
        assertThat(page.status()).isEqualTo(200);
        return page.json();
    }

    /** The same page read from MySQL: a cursor past every id is not the newest page, which alone is kept. */
    private JsonNode fromMySql(TestUser reader) {
        ApiResponse page = api.get("/api/v1/timelines/home?limit=5&max_id=" + Long.MAX_VALUE, reader.token());
        assertThat(page.status()).isEqualTo(200);
        return page.json();
    }

    private long pulledSource(TestUser reader, String prefix) {
        return deliveries.pulledFeed(reader, prefix);
    }

    private void readBehindTheNodesBack(TestUser reader, long source, long itemId) {
        PulledKeptCountsApiTest.readBehindTheNodesBack(jdbc, reader, source, itemId);
    }

    private double pageReads(String outcome) {
        return meters.get("tributary.api.page.cache.reads").tag("outcome", outcome).counter().count();
    }

    private static List<String> ids(JsonNode page) {
        return Deliveries.ids(page);
    }

    private static boolean read(JsonNode page, long id) {
        for (JsonNode item : page) {
            if (item.path("id").asString().equals(String.valueOf(id))) {
                return item.path("read").asBoolean();
            }
        }
        throw new AssertionError(id + " is not on the page " + ids(page));
    }

    @Test
    void aPulledFollowsNewMediaFilterShowsAtTheNextRequest() {
        TestUser alice = api.newUser("pkpfa");
        long big = pulledSource(alice, "pkpfa");
        List<Long> ids = deliveries.publish(big, entry(MediaType.TEXT), entry(MediaType.IMAGE));
        home(alice);
        assertThat(ids(home(alice))).containsExactly(String.valueOf(ids.get(1)), String.valueOf(ids.get(0)));

        subscriptions.subscribe(alice.numericId(), big, Set.of(MediaType.TEXT));

        assertThat(ids(home(alice))).containsExactly(String.valueOf(ids.get(0)));
        assertThat(home(alice)).isEqualTo(fromMySql(alice));
    }

    @Test
    void aPulledPublishPatchesTheKeptPageInsteadOfReadingItAgain() {
        TestUser bob = api.newUser("pkppb");
        long big = pulledSource(bob, "pkppb");
        long first = deliveries.publish(big, entry(MediaType.TEXT)).getFirst();
        home(bob);
        home(bob);
        readBehindTheNodesBack(bob, big, first);

        long second = deliveries.publish(big, entry(MediaType.LINK)).getFirst();
        double patchedBefore = pageReads("patched");
        JsonNode patched = home(bob);
        assertThat(pageReads("patched")).as("counted as patched").isEqualTo(patchedBefore + 1);
        assertThat(ids(patched)).containsExactly(String.valueOf(second), String.valueOf(first));
        assertThat(read(patched, first)).as("patched, not read again: the mark behind its back unseen").isFalse();
        // Not through a page: a node keeps a person's marks with their pulled follows, under a version a mark behind its back does not move.
        assertThat(jdbc.sql("SELECT is_read FROM pulled_marks WHERE user_id = ? AND item_id = ?").params(bob.numericId(), first)
                .query(Boolean.class).single()).as("MySQL has it").isTrue();

        assertThat(api.post("/api/v1/items/" + second + "/read", bob.token(), null).status()).isEqualTo(204);
        assertThat(home(bob)).as("a read mark voids the page").isEqualTo(fromMySql(bob));
        assertThat(read(home(bob), second)).isTrue();
    }

    /**
     * A second follower's page is patched with the stamps of the items the node's heads already
     * hold read along with the page's (one read): what changed an item since another follower's
     * read rendered it shows, and the page is the one MySQL gives.
     */
    @Test
    void aPatchFromHeadsAnotherReadBroughtUpToDateSeesEveryChangeOfTheNewItems() {
        TestUser erin = api.newUser("pkppe");
        long big = pulledSource(erin, "pkppe");
        TestUser frank = api.newUser("pkppf");
        deliveries.follow(frank, big);
        TestUser liker = api.newUser("pkppl");
        deliveries.publish(big, entry(MediaType.TEXT));
        home(erin);
        home(frank);

        long liked = deliveries.publish(big, entry(MediaType.TEXT)).getFirst();
        home(erin); // brings the node's head of the source up to date and renders the new item
        assertThat(api.post("/api/v1/items/" + liked + "/like", liker.token(), null).status()).isIn(200, 204);
        double patchedBefore = pageReads("patched");
        JsonNode afterLike = home(frank);
        assertThat(pageReads("patched")).as("patched, not read again").isEqualTo(patchedBefore + 1);
        assertThat(item(afterLike, liked).path("likes_count").asLong()).as("the like after the rendering").isEqualTo(1);
        assertThat(afterLike).isEqualTo(fromMySql(frank));

        long plain = deliveries.publish(big, entry(MediaType.LINK)).getFirst();
        home(erin);
        double patchedThen = pageReads("patched");
        JsonNode afterPublish = home(frank);
        assertThat(pageReads("patched")).isEqualTo(patchedThen + 1);
        assertThat(ids(afterPublish).getFirst()).isEqualTo(String.valueOf(plain));
        assertThat(afterPublish).isEqualTo(fromMySql(frank));
    }

    private static JsonNode item(JsonNode page, long id) {
        for (JsonNode item : page) {
            if (item.path("id").asString().equals(String.valueOf(id))) {
                return item;
            }
        }
        throw new AssertionError(id + " is not on the page " + ids(page));
    }

    @Test
    void everyChangeAPersonMakesAndEveryTombstoneShowsOnAPatchedPage() {
        TestUser carol = api.newUser("pkppc");
        long big = pulledSource(carol, "pkppc");
        List<Long> ids = new ArrayList<>(deliveries.publish(big, entry(MediaType.TEXT), entry(MediaType.TEXT)));
        home(carol);
        ids.addAll(deliveries.publish(big, entry(MediaType.IMAGE)));
        assertThat(home(carol)).isEqualTo(fromMySql(carol));

        assertThat(api.post("/api/v1/items/" + ids.get(2) + "/star", carol.token(), null).status()).isIn(200, 204);
        ids.addAll(deliveries.publish(big, entry(MediaType.TEXT)));
        assertThat(home(carol)).as("a star, then a publish").isEqualTo(fromMySql(carol));

        ApiResponse marker = api.post("/api/v1/markers", carol.token(), java.util.Map.of("up_to_id", String.valueOf(ids.get(1))));
        assertThat(marker.status()).isEqualTo(200);
        ids.addAll(deliveries.publish(big, entry(MediaType.TEXT)));
        JsonNode afterMarker = home(carol);
        assertThat(afterMarker).as("a marker, then a publish").isEqualTo(fromMySql(carol));
        assertThat(read(afterMarker, ids.get(1))).isTrue();

        ApiResponse future = api.post("/api/v1/markers", carol.token(), java.util.Map.of("up_to_id", String.valueOf(Long.MAX_VALUE / 2)));
        assertThat(future.status()).isEqualTo(200);
        long later = deliveries.publish(big, entry(MediaType.TEXT)).getFirst();
        JsonNode afterFutureMarker = home(carol);
        assertThat(read(afterFutureMarker, later)).as("read by the read position the marker moved").isTrue();
        assertThat(afterFutureMarker).isEqualTo(fromMySql(carol));

        assertThat(publisher.tombstone(ids.get(3))).isTrue();
        deliveries.publish(big, entry(MediaType.TEXT));
        JsonNode afterTombstone = home(carol);
        assertThat(ids(afterTombstone)).doesNotContain(String.valueOf(ids.get(3)));
        assertThat(afterTombstone).isEqualTo(fromMySql(carol));

        subscriptions.subscribe(carol.numericId(), big, Set.of(MediaType.TEXT));
        deliveries.publish(big, entry(MediaType.IMAGE), entry(MediaType.TEXT));
        assertThat(home(carol)).as("a filter, then a publish of what it lets through and what not").isEqualTo(fromMySql(carol));
    }

    @Test
    void publishesRacingReadsLeaveTheKeptPageEqualToMySql() throws Exception {
        TestUser dave = api.newUser("pkppd");
        long big = pulledSource(dave, "pkppd");
        long other = deliveries.feed();
        deliveries.follow(dave, other);
        deliveries.publish(big, entry(MediaType.TEXT));
        home(dave);
        ExecutorService publishers = Executors.newFixedThreadPool(2);
        try {
            List<Future<List<Long>>> done = new ArrayList<>();
            for (long source : List.of(big, other)) {
                done.add(publishers.submit(() -> {
                    List<Long> published = new ArrayList<>();
                    for (int i = 0; i < 15; i++) {
                        published.addAll(deliveries.publish(source, entry(i % 3 == 0 ? MediaType.IMAGE : MediaType.TEXT)));
                    }
                    return published;
                }));
            }
            for (int i = 0; i < 40; i++) {
                home(dave);
            }
            for (Future<List<Long>> one : done) {
                one.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
            // The pushed source's items reach the inbox by fan-out, after their publish returned.
            deliveries.awaitInTimeline(dave, done.get(1).get());
        } finally {
            publishers.shutdownNow();
        }
        assertThat(home(dave)).isEqualTo(fromMySql(dave));
        assertThat(ids(home(dave))).hasSize(5);
    }
}
