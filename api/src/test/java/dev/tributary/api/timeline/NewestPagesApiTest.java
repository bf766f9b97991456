package dev.tributary.api.timeline;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The newest page is kept per node between requests: every change that shows on it must show at
 * the very next request, with no waiting, whichever path it takes (inbox, item, reactions), and
 * a Redis that lost its keys must not bring back an old page.
 */
@ApiTest
class NewestPagesApiTest {

    private static final String NEWEST = "/api/v1/timelines/home?limit=20";

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired StringRedisTemplate redis;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    private JsonNode newest(TestUser reader) {
        ApiResponse page = api.get(NEWEST, reader.token());
        assertThat(page.status()).isEqualTo(200);
        return page.json();
    }

    private static JsonNode item(JsonNode page, long id) {
        for (JsonNode item : page) {
            if (item.path("id").asString().equals(String.valueOf(id))) {
                return item;
            }
        }
        return null;
    }

    @Test
    void anEditedItemShowsItsNewTextAtTheNextRequest() {
        TestUser alice = api.newUser("edit");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        NewItem original = entry(MediaType.TEXT);
        long id = deliveries.deliver(feed, List.of(alice), original).getFirst();
        assertThat(item(newest(alice), id).path("title").asString()).isEqualTo(original.title());

        publisher.publish(feed, List.of(new NewItem(original.guid(), "Corrected title", original.summary(), original.url(),
                original.author(), original.mediaType(), original.media(), original.tags(), original.publishedAt())));

        assertThat(item(newest(alice), id).path("title").asString()).isEqualTo("Corrected title");
    }

    @Test
    void aDeletedPostLeavesEveryFollowersPageAtOnce() {
        TestUser alice = api.newUser("gone");
        TestUser bob = api.newUser("poster");
        assertThat(api.post("/api/v1/subscriptions", alice.token(), Map.of("user", bob.username())).status()).isEqualTo(201);
        long post = Long.parseLong(api.post("/api/v1/posts", bob.token(), Map.of("text", "soon gone")).json().path("id").asString());
        deliveries.awaitInTimeline(alice, List.of(post));
        assertThat(item(newest(alice), post)).isNotNull();

        assertThat(api.delete("/api/v1/posts/" + post, bob.token()).status()).isEqualTo(204);

        assertThat(item(newest(alice), post)).isNull();
    }

    @Test
    void anotherPersonsLikeAndCommentShowInTheCountsAtOnce() {
        TestUser alice = api.newUser("counts");
        TestUser carol = api.newUser("liker");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        long id = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();
        String before = api.get(NEWEST, alice.token()).header("ETag");

        api.post("/api/v1/items/" + id + "/like", carol.token(), null);
        api.post("/api/v1/items/" + id + "/comments", carol.token(), Map.of("text", "nice"));

        ApiResponse after = api.get(NEWEST, alice.token());
        assertThat(item(after.json(), id).path("likes_count").asLong()).isEqualTo(1);
        assertThat(item(after.json(), id).path("comments_count").asLong()).isEqualTo(1);
        assertThat(after.header("ETag")).isNotEqualTo(before);
    }

    @Test
    void readMarksAndNewEntriesShowAtOnceAndAnUnchangedPageKeepsItsETag() {
        TestUser alice = api.newUser("marks");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        long first = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();
        ApiResponse once = api.get(NEWEST, alice.token());
        ApiResponse twice = api.get(NEWEST, alice.token());
        assertThat(twice.body()).isEqualTo(once.body());
        assertThat(twice.header("ETag")).isEqualTo(once.header("ETag"));

        assertThat(api.post("/api/v1/items/" + first + "/read", alice.token(), null).status()).isEqualTo(204);
        assertThat(item(newest(alice), first).path("read").asBoolean()).isTrue();

        long second = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();
        assertThat(newest(alice).get(0).path("id").asString()).isEqualTo(String.valueOf(second));
    }

    @Test
    void aRedisThatLostItsKeysNeverBringsBackAnOldPage() {
        TestUser alice = api.newUser("flush");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        long id = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();
        assertThat(item(newest(alice), id).path("read").asBoolean()).isFalse();

        redis.execute((org.springframework.data.redis.core.RedisCallback<Object>) connection -> {
            connection.serverCommands().flushAll();
            return null;
        });
        assertThat(api.post("/api/v1/items/" + id + "/read", alice.token(), null).status()).isEqualTo(204);

        assertThat(item(newest(alice), id).path("read").asBoolean()).isTrue();
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isZero();
    }

    @Test
    void aStarShowsOnTheStarrersKeptPageAtOnceAndOnNobodyElses() {
        TestUser alice = api.newUser("starpage");
        TestUser bob = api.newUser("starpeer");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        deliveries.follow(bob, feed);
        long id = deliveries.deliver(feed, List.of(alice, bob), entry(MediaType.TEXT)).getFirst();
        ApiResponse kept = api.get(NEWEST, alice.token());
        assertThat(item(kept.json(), id).path("starred").asBoolean()).isFalse();
        newest(bob);

        assertThat(api.post("/api/v1/items/" + id + "/star", alice.token(), null).status()).isEqualTo(200);

        ApiResponse starred = api.get(NEWEST, alice.token());
        assertThat(item(starred.json(), id).path("starred").asBoolean()).isTrue();
        assertThat(starred.header("ETag")).isNotEqualTo(kept.header("ETag"));
        // The kept page is written part by part, a starred item one byte shorter: its length must still be exact.
        assertThat(starred.contentType()).startsWith("application/json");
        assertThat(starred.header("Content-Length"))
                .isEqualTo(Integer.toString(starred.body().getBytes(StandardCharsets.UTF_8).length));
        assertThat(item(newest(bob), id).path("starred").asBoolean()).as("a star is its person's own").isFalse();
        api.post("/api/v1/items/" + id + "/read", alice.token(), null);
        JsonNode readAndStarred = item(newest(alice), id);
        assertThat(readAndStarred.path("read").asBoolean()).isTrue();
        assertThat(readAndStarred.path("starred").asBoolean()).isTrue();

        api.delete("/api/v1/items/" + id + "/star", alice.token());
        assertThat(item(newest(alice), id).path("starred").asBoolean()).isFalse();
    }
}
