package dev.tributary.api.item;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** Issue 19, "N people shared this": an item's {@code shared_by} names the people who posted its link. */
@ApiTest
class SharedByApiTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    private String post(TestUser author, String url) {
        ApiResponse created = api.post("/api/v1/posts", author.token(), Map.of("text", "look", "url", url));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().path("id").asString();
    }

    private JsonNode item(TestUser reader, Object id) {
        ApiResponse read = api.get("/api/v1/items/" + id, reader.token());
        assertThat(read.status()).as(read.toString()).isEqualTo(200);
        return read.json();
    }

    private static List<String> people(JsonNode item) {
        return item.path("shared_by").path("people").valueStream().map(p -> p.path("username").asString()).toList();
    }

    private long feedItem(TestUser reader, String url) {
        long feed = deliveries.feed();
        deliveries.follow(reader, feed);
        return deliveries.publish(feed, new NewItem(UUID.randomUUID().toString(), "T", "<p>S</p>", url, "a",
                MediaType.TEXT, List.of(), List.of(), Instant.now().minusSeconds(60))).getFirst();
    }

    @Test
    void twoPeoplePostingOneLinkSpelledTwoWaysShowOnItsFeedItemNewestFirstButNotOnTheirOwnPosts() {
        TestUser reader = api.newUser("shreader");
        TestUser alice = api.newUser("shalice");
        TestUser bob = api.newUser("shbob");
        String path = "x" + UUID.randomUUID() + ".test/a";
        long feedItem = feedItem(reader, "http://X" + path + "/");
        assertThat(!item(reader, feedItem).has("shared_by")).as("nobody shared it yet").isTrue();

        String alicePost = post(alice, "https://x" + path + "?utm_source=y");
        String bobPost = post(bob, "http://x" + path + "#comments");

        JsonNode shown = item(reader, feedItem);
        assertThat(shown.path("shared_by").path("count").asInt()).isEqualTo(2);
        assertThat(people(shown)).containsExactly(bob.username(), alice.username());
        JsonNode onAlices = item(alice, alicePost);
        assertThat(onAlices.path("shared_by").path("count").asInt()).as("her own post: bob only").isEqualTo(1);
        assertThat(people(onAlices)).containsExactly(bob.username());
        assertThat(people(item(bob, bobPost))).containsExactly(alice.username());
    }

    @Test
    void groupPostsDoNotCountAndATombstonedPostLeaves() {
        TestUser reader = api.newUser("shgreader");
        TestUser alice = api.newUser("shgalice");
        String url = "https://g" + UUID.randomUUID() + ".test/story";
        long feedItem = feedItem(reader, url);
        String group = api.post("/api/v1/groups", alice.token(), Map.of("name", "g" + UUID.randomUUID().toString().substring(0, 8)))
                .json().path("id").asString();
        ApiResponse inGroup = api.post("/api/v1/groups/" + group + "/posts", alice.token(), Map.of("text", "members only", "url", url));
        assertThat(inGroup.status()).as(inGroup.toString()).isEqualTo(201);
        assertThat(!item(reader, feedItem).has("shared_by")).as("a group's post is its members' only").isTrue();

        String post = post(alice, url);
        assertThat(people(item(reader, feedItem))).containsExactly(alice.username());
        assertThat(api.delete("/api/v1/posts/" + post, alice.token()).status()).isEqualTo(204);
        assertThat(!item(reader, feedItem).has("shared_by")).as("the deleted post's share left").isTrue();
    }

    @Test
    void aLongLinkSharesAndManySharersListTenWithTheExactCount() {
        TestUser reader = api.newUser("shmreader");
        String url = "https://m" + UUID.randomUUID() + ".test/" + "p".repeat(1990);
        assertThat(url.length()).isLessThanOrEqualTo(2048);
        long feedItem = feedItem(reader, url);
        List<String> posters = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            TestUser poster = api.newUser("shm" + i);
            post(poster, url);
            posters.add(0, poster.username());
        }
        ApiResponse tooLong = api.post("/api/v1/posts", reader.token(), Map.of("text", "x", "url", url + "q".repeat(2048)));
        assertThat(tooLong.status()).as(tooLong.toString()).isEqualTo(400);

        JsonNode shown = item(reader, feedItem);
        assertThat(shown.path("shared_by").path("count").asInt()).isEqualTo(12);
        assertThat(people(shown)).containsExactlyElementsOf(posters.subList(0, 10));
        deliveries.awaitInTimeline(reader, List.of(feedItem));
        JsonNode page = api.get("/api/v1/timelines/home?limit=20", reader.token()).json();
        assertThat(page.valueStream().filter(i -> i.path("id").asString().equals(String.valueOf(feedItem)))
                .map(i -> i.path("shared_by").path("count").asInt()).toList()).as("the newest page too").containsExactly(12);
    }

    private Integer countOnNewestPage(TestUser reader, long itemId) {
        JsonNode page = api.get("/api/v1/timelines/home?limit=20", reader.token()).json();
        return page.valueStream().filter(i -> i.path("id").asString().equals(String.valueOf(itemId)))
                .map(i -> i.path("shared_by").path("count").asInt()).findFirst().orElse(null);
    }

    @Test
    void aNewShareOrADeletedOneVoidsTheKeptNewestPageAtOnce() {
        TestUser reader = api.newUser("shkreader");
        TestUser alice = api.newUser("shkalice");
        TestUser bob = api.newUser("shkbob");
        String url = "https://k" + UUID.randomUUID() + ".test/kept";
        long feedItem = feedItem(reader, url);
        deliveries.awaitInTimeline(reader, List.of(feedItem));
        post(alice, url);
        assertThat(countOnNewestPage(reader, feedItem)).isEqualTo(1);
        assertThat(countOnNewestPage(reader, feedItem)).as("served from the kept page").isEqualTo(1);

        String bobs = post(bob, url);
        assertThat(countOnNewestPage(reader, feedItem)).as("the share moved the story's stamp, no minute's wait").isEqualTo(2);
        assertThat(api.delete("/api/v1/posts/" + bobs, bob.token()).status()).isEqualTo(204);
        assertThat(countOnNewestPage(reader, feedItem)).isEqualTo(1);
    }
}
