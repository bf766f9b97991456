package dev.tributary.api.reaction;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class ReactionApiTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    private ApiClient api;
    private Deliveries deliveries;
    private TestUser alice;
    private TestUser bob;
    private long item;

    @BeforeEach
    void anItemInTwoTimelines() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
        alice = api.newUser("react");
        bob = api.newUser("friend");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        deliveries.follow(bob, feed);
        item = deliveries.deliver(feed, List.of(alice, bob), entry(MediaType.TEXT)).getFirst();
    }

    @Test
    void commentsAreAddedListedOldestFirstAndCounted() {
        ApiResponse created = comment(alice, "First! <script>alert(1)</script>");

        assertThat(created.status()).isEqualTo(201);
        JsonNode comment = created.json();
        assertThat(comment.path("id").isString()).isTrue();
        assertThat(comment.path("item_id").asString()).isEqualTo(String.valueOf(item));
        assertThat(comment.path("author").path("id").asString()).isEqualTo(alice.id());
        assertThat(comment.path("author").path("username").asString()).isEqualTo(alice.username());
        assertThat(comment.path("text").asString()).as("plain text, kept as sent").isEqualTo("First! <script>alert(1)</script>");
        assertThat(Instant.parse(comment.path("created_at").asString())).isBefore(Instant.now().plusSeconds(1));
        comment(bob, "second");
        comment(alice, "third");

        ApiResponse listed = api.get("/api/v1/items/" + item + "/comments", bob.token());
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().findValuesAsString("text")).containsExactly("First! <script>alert(1)</script>", "second", "third");
        assertThat(itemView(bob).path("comments_count").asLong()).isEqualTo(3);
        assertThat(timelineItem(alice).path("comments_count").asLong()).isEqualTo(3);
    }

    @Test
    void commentsPageForwardsWithLinks() {
        for (int i = 1; i <= 5; i++) {
            comment(i % 2 == 0 ? bob : alice, "c" + i);
        }

        ApiResponse first = api.get("/api/v1/items/" + item + "/comments?limit=2", alice.token());
        assertThat(first.json().findValuesAsString("text")).containsExactly("c1", "c2");
        ApiResponse second = api.get(link(first, "next"), alice.token());
        assertThat(second.json().findValuesAsString("text")).containsExactly("c3", "c4");
        ApiResponse back = api.get(link(second, "prev"), alice.token());
        assertThat(back.json().findValuesAsString("text")).containsExactly("c1", "c2");
        ApiResponse third = api.get(link(second, "next"), alice.token());
        assertThat(third.json().findValuesAsString("text")).containsExactly("c5");
        assertThat(api.get(link(third, "next"), alice.token()).json().size()).isZero();
    }

    @Test
    void onlyTheAuthorDeletesAComment() {
        String id = comment(alice, "mine").json().path("id").asString();
        comment(bob, "his");

        ApiResponse byBob = api.delete("/api/v1/comments/" + id, bob.token());
        assertThat(byBob.status()).isEqualTo(403);
        assertThat(byBob.contentType()).startsWith("application/problem+json");
        assertThat(itemView(alice).path("comments_count").asLong()).isEqualTo(2);

        assertThat(api.delete("/api/v1/comments/" + id, alice.token()).status()).isEqualTo(204);
        assertThat(api.delete("/api/v1/comments/" + id, alice.token()).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/comments/1234", alice.token()).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/comments/nope", alice.token()).status()).isEqualTo(404);
        assertThat(itemView(alice).path("comments_count").asLong()).isEqualTo(1);
        assertThat(api.get("/api/v1/items/" + item + "/comments", alice.token()).json().findValuesAsString("text"))
                .containsExactly("his");
    }

    @Test
    void badCommentsAreClearProblems() {
        String path = "/api/v1/items/" + item + "/comments";

        assertField(api.post(path, alice.token(), Map.of("text", "")), "text");
        assertField(api.post(path, alice.token(), Map.of("text", "   ")), "text");
        assertField(api.post(path, alice.token(), Map.of("text", "x".repeat(4001))), "text");
        assertField(api.post(path, alice.token(), Map.of()), "text");
        assertField(api.post(path, alice.token(), Map.of("text", "hi", "extra", 1)), "extra");
        assertField(api.post(path, alice.token(), Map.of("text", 42)), "text");
        assertField(api.post(path, alice.token(), Map.of("text", List.of("a"))), "text");
        assertThat(api.post(path, alice.token(), Map.of("text", "x".repeat(4000))).status()).isEqualTo(201);
        assertThat(api.post(path, alice.token(), "{\"text\": \"unclosed").status()).isEqualTo(400);
        assertThat(api.send("POST", path, alice.token(), "hello", "text/plain").status()).isEqualTo(415);
        assertThat(api.post(path, alice.token(), Map.of("text", "x".repeat(3_000_000))).status()).isEqualTo(413);
        assertThat(api.post("/api/v1/items/777/comments", alice.token(), Map.of("text", "hi")).status()).isEqualTo(404);
        assertThat(api.post("/api/v1/items/x/comments", alice.token(), Map.of("text", "hi")).status()).isEqualTo(404);
        assertThat(api.get(path + "?limit=500", alice.token()).status()).isEqualTo(400);
        assertThat(itemView(alice).path("comments_count").asLong()).isEqualTo(1);
    }

    @Test
    void likesAreIdempotentAndCountedExactly() {
        String path = "/api/v1/items/" + item + "/like";

        ApiResponse liked = api.post(path, alice.token(), null);
        assertThat(liked.status()).isEqualTo(200);
        assertThat(liked.json().path("likes_count").asLong()).isEqualTo(1);
        assertThat(liked.json().path("liked").asBoolean()).isTrue();
        assertThat(api.post(path, alice.token(), null).json().path("likes_count").asLong()).as("again").isEqualTo(1);
        assertThat(api.post(path, bob.token(), null).json().path("likes_count").asLong()).isEqualTo(2);
        assertThat(timelineItem(bob).path("likes_count").asLong()).isEqualTo(2);

        ApiResponse unliked = api.delete(path, alice.token());
        assertThat(unliked.status()).isEqualTo(200);
        assertThat(unliked.json().path("likes_count").asLong()).isEqualTo(1);
        assertThat(unliked.json().path("liked").asBoolean()).isFalse();
        assertThat(api.delete(path, alice.token()).json().path("likes_count").asLong()).as("again").isEqualTo(1);
        assertThat(itemView(alice).path("likes_count").asLong()).isEqualTo(1);
        assertThat(api.post("/api/v1/items/0/like", alice.token(), null).status()).isEqualTo(404);
    }

    @Test
    void theLikeStateIsReadWithoutChangingIt() {
        String path = "/api/v1/items/" + item + "/like";
        ApiResponse before = api.get(path, alice.token());
        assertThat(before.status()).isEqualTo(200);
        assertThat(before.json().path("likes_count").asLong()).isZero();
        assertThat(before.json().path("liked").asBoolean()).isFalse();

        api.post(path, bob.token(), null);
        ApiResponse others = api.get(path, alice.token());
        assertThat(others.json().path("likes_count").asLong()).as("bob's like counts").isEqualTo(1);
        assertThat(others.json().path("liked").asBoolean()).as("but is not alice's").isFalse();
        ApiResponse bobs = api.get(path, bob.token());
        assertThat(bobs.json().path("liked").asBoolean()).isTrue();
        assertThat(api.get(path, bob.token()).json().path("likes_count").asLong()).as("reading changes nothing").isEqualTo(1);

        api.delete(path, bob.token());
        assertThat(api.get(path, bob.token()).json().path("liked").asBoolean()).isFalse();
        assertThat(api.get(path, bob.token()).json().path("likes_count").asLong()).isZero();
    }

    @Test
    void theLikeStateOfAnItemOneCannotSeeIsNotFound() {
        String group = api.post("/api/v1/groups", alice.token(), Map.of("name", "Secret club")).json().path("id").asString();
        ApiResponse posted = api.post("/api/v1/groups/" + group + "/posts", alice.token(), Map.of("text", "members only"));
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
        String groupItem = posted.json().path("id").asString();
        TestUser outsider = api.newUser("outsider");

        assertThat(api.get("/api/v1/items/" + groupItem + "/like", alice.token()).status()).isEqualTo(200);
        ApiResponse hidden = api.get("/api/v1/items/" + groupItem + "/like", outsider.token());
        assertThat(hidden.status()).isEqualTo(404);
        assertThat(hidden.contentType()).startsWith("application/problem+json");
        assertThat(api.get("/api/v1/items/777/like", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/items/nope/like", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/items/" + item + "/like", null).status()).isEqualTo(401);
        publisher.tombstone(item);
        assertThat(api.get("/api/v1/items/" + item + "/like", alice.token()).status()).isEqualTo(404);
    }

    @Test
    void aTombstonedItemTakesNoReactionsAndStaysOutOfInboxes() {
        TestUser carol = api.newUser("bystander");
        comment(alice, "before");
        publisher.tombstone(item);

        assertThat(api.post("/api/v1/items/" + item + "/like", alice.token(), null).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/items/" + item + "/like", alice.token()).status()).isEqualTo(404);
        assertThat(comment(alice, "after").status()).isEqualTo(404);
        assertThat(api.get("/api/v1/items/" + item + "/comments", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/timelines/home", carol.token()).json().size()).as("reactions never fan out").isZero();
    }

    private ApiResponse comment(TestUser user, String text) {
        return api.post("/api/v1/items/" + item + "/comments", user.token(), Map.of("text", text));
    }

    private JsonNode itemView(TestUser user) {
        return api.get("/api/v1/items/" + item, user.token()).json();
    }

    private JsonNode timelineItem(TestUser user) {
        for (JsonNode view : api.get("/api/v1/timelines/home", user.token()).json()) {
            if (view.path("id").asString().equals(String.valueOf(item))) {
                return view;
            }
        }
        throw new AssertionError("item not in the timeline");
    }

    private static String link(ApiResponse response, String rel) {
        for (String part : response.header("Link").split(", ")) {
            if (part.endsWith("rel=\"" + rel + "\"")) {
                String url = part.substring(1, part.indexOf('>'));
                return url.substring(url.indexOf("/api/"));
            }
        }
        throw new AssertionError("no " + rel + " link in " + response.header("Link"));
    }

    private static void assertField(ApiResponse response, String field) {
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().path("errors").findValuesAsString("field")).contains(field);
    }
}
