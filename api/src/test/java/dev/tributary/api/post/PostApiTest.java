package dev.tributary.api.post;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.storage.testing.Await;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class PostApiTest {

    @LocalServerPort int port;
    @Autowired HomeFeed readState;
    @Autowired HomeFeed home;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void aTextPostIsAnItemOfThePostersSourceWithEscapedText() {
        TestUser alice = api.newUser("post");

        ApiResponse created = api.post("/api/v1/posts", alice.token(),
                Map.of("text", "Hello <script>alert(1)</script>\nsecond line", "tags", List.of("News", " news ", "misc")));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode item = created.json();
        assertThat(item.path("id").isString()).isTrue();
        assertThat(item.path("media_type").asString()).isEqualTo("text");
        assertThat(item.path("summary").asString())
                .isEqualTo("<p>Hello &lt;script&gt;alert(1)&lt;/script&gt;<br>second line</p>");
        assertThat(item.path("author").asString()).isEqualTo(alice.username());
        assertThat(item.path("url").isNull()).isTrue();
        assertThat(item.path("tags").valueStream().map(JsonNode::asString)).containsExactly("News", "misc");
        assertThat(item.path("source").path("kind").asString()).isEqualTo("user");
        assertThat(item.path("source").path("title").asString()).isEqualTo(alice.username());
        assertThat(Instant.parse(item.path("published_at").asString())).isBefore(Instant.now().plusSeconds(1));
        assertThat(item.path("likes_count").asLong()).isZero();
    }

    @Test
    void aPostWithAUrlIsALink() {
        TestUser alice = api.newUser("link");

        ApiResponse created = api.post("/api/v1/posts", alice.token(), Map.of("text", "look", "url", "https://example.org/a?b=c"));

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().path("media_type").asString()).isEqualTo("link");
        assertThat(created.json().path("url").asString()).isEqualTo("https://example.org/a?b=c");
    }

    @Test
    void postersSeeTheirOwnPostsAtHomeAndFollowersReceiveThem() {
        TestUser alice = api.newUser("home");
        TestUser bob = api.newUser("home");
        api.post("/api/v1/subscriptions", bob.token(), Map.of("user", alice.username()));

        long itemId = Long.parseLong(api.post("/api/v1/posts", alice.token(), Map.of("text", "for everyone")).json().path("id").asString());

        Await.until("the post in the poster's home timeline", () -> homeIds(alice).contains(itemId));
        Await.until("the post in the follower's home timeline", () -> homeIds(bob).contains(itemId));
    }

    @Test
    void badPostsAreClear400s() {
        TestUser alice = api.newUser("badpost");
        String token = alice.token();
        List<ApiResponse> refused = List.of(
                api.post("/api/v1/posts", token, Map.of("text", "   \n ")),
                api.post("/api/v1/posts", token, Map.of("text", "x".repeat(5001))),
                api.post("/api/v1/posts", token, Map.of("text", "x", "url", "javascript:alert(1)")),
                api.post("/api/v1/posts", token, Map.of("text", "x", "url", "/relative/path")),
                api.post("/api/v1/posts", token, Map.of("text", "x", "url", "https://exa mple.org/")),
                api.post("/api/v1/posts", token, Map.of("text", "x", "tags", Collections.nCopies(21, "t"))),
                api.post("/api/v1/posts", token, Map.of("text", "x", "tags", List.of("t".repeat(65)))),
                api.post("/api/v1/posts", token, Map.of("text", "x", "tags", List.of("  "))),
                api.post("/api/v1/posts", token, "{\"text\": \"x\", \"tags\": \"not a list\"}"),
                api.post("/api/v1/posts", token, "{\"text\": 5, \"tags\": [{}]}"),
                api.post("/api/v1/posts", token, Map.of("text", "x", "title", "unknown")),
                api.post("/api/v1/posts", token, "{\"text\": \"unterminated"),
                api.post("/api/v1/posts", token, Map.of("url", "https://example.org/")),
                api.post("/api/v1/posts", token, null));

        for (ApiResponse response : refused) {
            assertThat(response.status()).as(response.toString()).isEqualTo(400);
            assertThat(response.contentType()).startsWith("application/problem+json");
        }
        assertThat(refused.get(1).json().path("errors").findValuesAsString("field")).containsExactly("text");
        assertThat(refused.get(2).json().path("errors").findValuesAsString("field")).containsExactly("url");
        assertThat(refused.get(5).json().path("errors").findValuesAsString("field")).containsExactly("tags");
        assertThat(api.send("POST", "/api/v1/posts", token, "text=x", "application/x-www-form-urlencoded").status()).isEqualTo(415);
        assertThat(api.post("/api/v1/posts", token, Map.of("text", "x".repeat(5000))).status()).isEqualTo(201);
    }

    @Test
    void deletingOnesOwnPostTombstonesItEverywhere() {
        TestUser alice = api.newUser("del");
        TestUser bob = api.newUser("del");
        api.post("/api/v1/subscriptions", bob.token(), Map.of("user", alice.username()));
        long itemId = Long.parseLong(api.post("/api/v1/posts", alice.token(), Map.of("text", "regrettable")).json().path("id").asString());
        Await.until("the post in the follower's inbox", () -> readState.holds(bob.numericId(), itemId));

        ApiResponse deleted = api.delete("/api/v1/posts/" + itemId, alice.token());
        ApiResponse again = api.delete("/api/v1/posts/" + itemId, alice.token());

        assertThat(deleted.status()).isEqualTo(204);
        assertThat(again.status()).isEqualTo(404);
        assertThat(homeIds(bob)).doesNotContain(itemId);
        assertThat(api.get("/api/v1/users/" + alice.username() + "/feed", alice.token()).json().size()).isZero();
        Await.until("the deleted post to leave the follower's inbox", () -> !readState.holds(bob.numericId(), itemId));
    }

    @Test
    void nobodyDeletesAnothersPost() {
        TestUser alice = api.newUser("other");
        TestUser mallory = api.newUser("other");
        String itemId = api.post("/api/v1/posts", alice.token(), Map.of("text", "mine")).json().path("id").asString();

        ApiResponse attempt = api.delete("/api/v1/posts/" + itemId, mallory.token());

        assertThat(attempt.status()).isEqualTo(403);
        assertThat(attempt.contentType()).startsWith("application/problem+json");
        assertThat(api.get("/api/v1/users/" + alice.username() + "/feed", alice.token()).json().valueStream()
                .map(item -> item.path("id").asString())).containsExactly(itemId);
    }

    @Test
    void deletingWhatIsNotAPostIs404() {
        TestUser alice = api.newUser("nopost");
        String groupId = api.post("/api/v1/groups", alice.token(), Map.of("name", "not an item")).json().path("id").asString();

        assertThat(api.delete("/api/v1/posts/abc", alice.token()).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/posts/0", alice.token()).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/posts/999999999999", alice.token()).status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/posts/" + groupId, alice.token()).status()).isEqualTo(404);
    }

    private List<Long> homeIds(TestUser user) {
        return home.page(user.numericId(), TimelineQuery.newest(100)).stream().map(TimelineEntry::id).toList();
    }
}
