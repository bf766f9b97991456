package dev.tributary.api.timeline;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class ReadStateApiTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired Groups groups;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    @Test
    void readAndUnreadMoveTheExactCounts() {
        TestUser alice = api.newUser("unread");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        List<Long> ids = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT), entry(MediaType.TEXT), entry(MediaType.IMAGE));

        JsonNode counts = unread(alice);
        assertThat(counts.path("total").asLong()).isEqualTo(3);
        assertThat(counts.path("by_source").path(String.valueOf(feed)).asLong()).isEqualTo(3);
        assertThat(counts.path("by_media").path("text").asLong()).isEqualTo(2);
        assertThat(counts.path("by_media").path("image").asLong()).isEqualTo(1);

        assertThat(api.post("/api/v1/items/" + ids.get(2) + "/read", alice.token(), null).status()).isEqualTo(204);
        assertThat(api.post("/api/v1/items/" + ids.get(2) + "/read", alice.token(), null).status()).as("again").isEqualTo(204);
        counts = unread(alice);
        assertThat(counts.path("total").asLong()).isEqualTo(2);
        assertThat(counts.path("by_media").has("image")).as("zeros are left out").isFalse();
        assertThat(api.get("/api/v1/items/" + ids.get(2), alice.token()).json().path("read").asBoolean()).isTrue();

        assertThat(api.delete("/api/v1/items/" + ids.get(2) + "/read", alice.token()).status()).isEqualTo(204);
        assertThat(api.delete("/api/v1/items/" + ids.get(2) + "/read", alice.token()).status()).isEqualTo(204);
        assertThat(unread(alice).path("total").asLong()).isEqualTo(3);
        assertThat(api.get("/api/v1/items/" + ids.get(2), alice.token()).json().path("read").asBoolean()).isFalse();
    }

    @Test
    void aMarkerReadsEverythingUpToAnIdOptionallyOfOneSource() {
        TestUser bob = api.newUser("marker");
        long news = deliveries.feed();
        long blog = deliveries.feed();
        deliveries.follow(bob, news);
        deliveries.follow(bob, blog);
        List<Long> fromNews = deliveries.deliver(news, List.of(bob), entry(MediaType.TEXT), entry(MediaType.TEXT));
        List<Long> fromBlog = deliveries.deliver(blog, List.of(bob), entry(MediaType.TEXT), entry(MediaType.TEXT));

        ApiResponse onlyNews = api.post("/api/v1/markers", bob.token(),
                Map.of("up_to_id", String.valueOf(fromBlog.getLast()), "source_id", String.valueOf(news)));
        assertThat(onlyNews.status()).isEqualTo(200);
        assertThat(onlyNews.json().path("marked").asInt()).isEqualTo(2);
        assertThat(unread(bob).path("total").asLong()).isEqualTo(2);

        ApiResponse upTo = api.post("/api/v1/markers", bob.token(), Map.of("up_to_id", String.valueOf(fromBlog.getFirst())));
        assertThat(upTo.json().path("marked").asInt()).isEqualTo(1);
        JsonNode counts = unread(bob);
        assertThat(counts.path("total").asLong()).isEqualTo(1);
        assertThat(counts.path("by_source").properties()).hasSize(1);
        assertThat(counts.path("by_source").path(String.valueOf(blog)).asLong()).isEqualTo(1);
        assertThat(api.post("/api/v1/markers", bob.token(), Map.of("up_to_id", String.valueOf(fromBlog.getFirst())))
                .json().path("marked").asInt()).as("nothing left to mark").isZero();
    }

    @Test
    void aMarkerReadsAFoldersSourcesUpToAnId() {
        TestUser carol = api.newUser("foldermark");
        TestUser mallory = api.newUser("foldermark");
        long news = deliveries.feed();
        long blog = deliveries.feed();
        long other = deliveries.feed();
        for (long source : List.of(news, blog, other)) {
            deliveries.follow(carol, source);
        }
        List<Long> fromNews = deliveries.deliver(news, List.of(carol), entry(MediaType.TEXT), entry(MediaType.TEXT));
        List<Long> fromBlog = deliveries.deliver(blog, List.of(carol), entry(MediaType.TEXT));
        List<Long> fromOther = deliveries.deliver(other, List.of(carol), entry(MediaType.TEXT));
        String folder = api.post("/api/v1/folders", carol.token(), Map.of("name", "Reading")).json().path("id").asString();
        for (long source : List.of(news, blog)) {
            String sub = StreamSupport.stream(api.get("/api/v1/subscriptions", carol.token()).json().spliterator(), false)
                    .filter(s -> s.path("source").path("id").asString().equals(String.valueOf(source)))
                    .findFirst().orElseThrow().path("id").asString();
            api.send("PATCH", "/api/v1/subscriptions/" + sub, carol.token(), Map.of("folder_ids", List.of(folder)),
                    "application/json");
        }

        ApiResponse inFolder = api.post("/api/v1/markers", carol.token(),
                Map.of("up_to_id", String.valueOf(fromOther.getLast()), "folder_id", folder));
        assertThat(inFolder.status()).as(inFolder.toString()).isEqualTo(200);
        assertThat(inFolder.json().path("marked").asInt()).isEqualTo(fromNews.size() + fromBlog.size());
        JsonNode counts = unread(carol);
        assertThat(counts.path("total").asLong()).isEqualTo(1);
        assertThat(counts.path("by_source").path(String.valueOf(other)).asLong()).isEqualTo(1);

        assertThat(api.post("/api/v1/markers", carol.token(), Map.of("up_to_id", "1", "folder_id", folder,
                "source_id", String.valueOf(news))).status()).isEqualTo(400);
        assertThat(api.post("/api/v1/markers", carol.token(), Map.of("up_to_id", "1", "folder_id", "x")).status())
                .isEqualTo(400);
        assertThat(api.post("/api/v1/markers", mallory.token(), Map.of("up_to_id", String.valueOf(fromOther.getLast()),
                "folder_id", folder)).status()).as("another person's folder").isEqualTo(404);
        assertThat(unread(carol).path("total").asLong()).isEqualTo(1);
    }

    @Test
    void nobodyMarksOrReadsAnotherPersonsInbox() {
        TestUser alice = api.newUser("owner");
        TestUser eve = api.newUser("intruder");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        List<Long> ids = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT));
        String item = String.valueOf(ids.getFirst());

        assertThat(api.post("/api/v1/items/" + item + "/read", eve.token(), null).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/items/" + item + "/read", eve.token()).status()).isEqualTo(404);
        ApiResponse marker = api.post("/api/v1/markers", eve.token(), Map.of("up_to_id", item));
        assertThat(marker.json().path("marked").asInt()).isZero();
        assertThat(unread(eve).path("total").asLong()).isZero();
        assertThat(unread(alice).path("total").asLong()).isEqualTo(1);
        assertThat(api.get("/api/v1/timelines/home", alice.token()).json().get(0).path("read").asBoolean()).isFalse();
    }

    @Test
    void aGroupsItemsAreOnlyForItsMembers() {
        TestUser alice = api.newUser("grp");
        TestUser eve = api.newUser("outsider");
        long group = groups.create(alice.numericId(), "Readers").id();
        groups.addMember(group, alice.numericId());
        long item = groups.post(group, alice.numericId(), entry(MediaType.TEXT)).created().getFirst();

        assertThat(api.get("/api/v1/items/" + item, alice.token()).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/items/" + item, eve.token()).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/items/" + item + "/like", eve.token(), null).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/items/" + item + "/comments", eve.token()).status()).isEqualTo(404);
    }

    @Test
    void oneItemIsShownLikeInTimelines() {
        TestUser carol = api.newUser("one");
        TestUser dan = api.newUser("other");
        long feed = deliveries.feed();
        deliveries.follow(carol, feed);
        long item = deliveries.deliver(feed, List.of(carol), entry(MediaType.LINK, "tag")).getFirst();

        ApiResponse shown = api.get("/api/v1/items/" + item, carol.token());
        assertThat(shown.status()).isEqualTo(200);
        assertThat(shown.json()).isEqualTo(api.get("/api/v1/timelines/home", carol.token()).json().get(0));
        assertThat(api.get("/api/v1/items/" + item, dan.token()).json().path("read").asBoolean())
                .as("a public feed's item, not in dan's inbox").isFalse();
        publisher.tombstone(item);
        assertThat(api.get("/api/v1/items/" + item, carol.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/items/12345", carol.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/items/abc", carol.token()).status()).isEqualTo(404);
    }

    @Test
    void badMarkersAndIdsAreClearProblems() {
        TestUser dan = api.newUser("badmark");

        assertThat(api.post("/api/v1/items/abc/read", dan.token(), null).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/items/-1/read", dan.token(), null).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/items/99999999999999/read", dan.token(), null).status()).isEqualTo(404);
        assertField(api.post("/api/v1/markers", dan.token(), Map.of()), "up_to_id");
        assertField(api.post("/api/v1/markers", dan.token(), Map.of("up_to_id", "x1")), "up_to_id");
        assertField(api.post("/api/v1/markers", dan.token(), Map.of("up_to_id", "1", "source_id", "-2")), "source_id");
        assertField(api.post("/api/v1/markers", dan.token(), Map.of("up_to_id", "1", "everything", true)), "everything");
        assertThat(api.post("/api/v1/markers", dan.token(), "{\"up_to_id\": ").status()).isEqualTo(400);
        assertThat(api.post("/api/v1/markers", dan.token(), null).status()).isEqualTo(400);
        assertThat(api.send("POST", "/api/v1/markers", dan.token(), "up_to_id=1", "application/x-www-form-urlencoded").status())
                .isEqualTo(415);
        assertThat(api.send("POST", "/api/v1/markers", dan.token(), "{\"up_to_id\": \"" + "1".repeat(3_000_000) + "\"}",
                "application/json").status()).isEqualTo(413);
        assertThat(api.get("/api/v1/unread", null).status()).isEqualTo(401);
    }

    private JsonNode unread(TestUser user) {
        ApiResponse response = api.get("/api/v1/unread", user.token());
        assertThat(response.status()).isEqualTo(200);
        return response.json();
    }

    private static void assertField(ApiResponse response, String field) {
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().path("errors").findValuesAsString("field")).containsExactly(field);
    }
}
