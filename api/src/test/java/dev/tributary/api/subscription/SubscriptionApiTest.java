package dev.tributary.api.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.storage.testing.Await;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class SubscriptionApiTest {

    private static final Instant NEWEST = Instant.now().minusSeconds(600);
    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    @LocalServerPort int port;
    @Autowired HomeFeed readState;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void subscribingToAFeedUrlFetchesItAndAnswersTheSubscription() {
        TestUser alice = api.newUser("sub");
        server.feed("/a.xml", TestFeeds.numbered("Alpha", 3, NEWEST));

        ApiResponse created = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", server.url("/a.xml").toString()));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode subscription = created.json();
        assertThat(subscription.path("id").isString()).isTrue();
        assertThat(subscription.path("media").isNull()).isTrue();
        assertThat(subscription.has("created_at")).isTrue();
        JsonNode source = subscription.path("source");
        assertThat(source.path("kind").asString()).isEqualTo("feed");
        assertThat(source.path("title").asString()).isEqualTo("Alpha");
        assertThat(source.path("url").asString()).isEqualTo(server.url("/a.xml").toString());
        assertThat(source.path("site_url").asString()).isEqualTo("https://example.org/");
        assertThat(source.path("status").asString()).isEqualTo("ok");
        // The fetch made on subscribing counts as the feed's first crawl.
        assertThat(source.path("last_fetched_at").isString()).isTrue();
        assertThat(source.path("next_fetch_at").isString()).isTrue();
        assertThat(source.path("last_error").isNull()).isTrue();
    }

    @Test
    void subscribingAgainAnswersTheExistingOneAndUpdatesItsMediaFilter() {
        TestUser alice = api.newUser("again");
        server.feed("/again.xml", TestFeeds.numbered("Again", 2, NEWEST));
        String url = server.url("/again.xml").toString();
        String id = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", url)).json().path("id").asString();

        ApiResponse same = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", url));
        ApiResponse filtered = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", url, "media", List.of("text", "image")));

        assertThat(same.status()).isEqualTo(200);
        assertThat(same.json().path("id").asString()).isEqualTo(id);
        assertThat(filtered.status()).isEqualTo(200);
        assertThat(filtered.json().path("id").asString()).isEqualTo(id);
        assertThat(filtered.json().path("media").valueStream().map(JsonNode::asString)).containsExactly("text", "image");
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().get(0).path("media").size()).isEqualTo(2);
    }

    @Test
    void aWebPageIsSearchedForItsFeed() {
        TestUser alice = api.newUser("disc");
        server.feed("/site/feed.xml", TestFeeds.numbered("Site", 1, NEWEST));
        server.feed("/site/", TestFeeds.htmlPage("/site/feed.xml"), "text/html; charset=utf-8", Map.of());

        ApiResponse created = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", server.url("/site/").toString()));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().path("source").path("url").asString()).isEqualTo(server.url("/site/feed.xml").toString());
    }

    @Test
    void unusableUrlsAre422WithTheReason() {
        TestUser alice = api.newUser("bad");
        server.feed("/page.html", "<html><body>no feeds here</body></html>", "text/html", Map.of());
        server.respond("/missing.xml", 404, Map.of(), "not here");

        ApiResponse notAFeed = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", server.url("/page.html").toString()));
        ApiResponse missing = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", server.url("/missing.xml").toString()));
        ApiResponse notHttp = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", "ftp://example.org/feed"));

        for (ApiResponse response : List.of(notAFeed, missing, notHttp)) {
            assertThat(response.status()).as(response.toString()).isEqualTo(422);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.json().path("reason").asString()).isNotEmpty();
            assertThat(response.json().path("detail").asString()).isNotEmpty();
        }
        assertThat(notHttp.json().path("reason").asString()).isEqualTo("invalid_url");
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isZero();
    }

    @Test
    void followingAPersonDeliversTheirPosts() {
        TestUser alice = api.newUser("fol");
        TestUser bob = api.newUser("fol");

        ApiResponse created = api.post("/api/v1/subscriptions", alice.token(), Map.of("user", bob.username()));
        String itemId = api.post("/api/v1/posts", bob.token(), Map.of("text", "hello followers")).json().path("id").asString();

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode source = created.json().path("source");
        assertThat(source.path("kind").asString()).isEqualTo("user");
        assertThat(source.path("title").asString()).isEqualTo(bob.username());
        assertThat(source.path("status").asString()).isEqualTo("ok");
        assertThat(source.path("last_fetched_at").isNull()).isTrue();
        assertThat(source.path("next_fetch_at").isNull()).isTrue();
        Await.until("the followed person's post in the inbox", () -> readState.holds(alice.numericId(), Long.parseLong(itemId)));
    }

    @Test
    void followingAnOpenGroupWithoutJoiningIt() {
        TestUser owner = api.newUser("grp");
        TestUser reader = api.newUser("grp");
        // Open: a closed group is its members' alone (ClosedGroupApiTest).
        JsonNode group = api.post("/api/v1/groups", owner.token(), Map.of("name", "Readers welcome", "open", true)).json();

        ApiResponse created = api.post("/api/v1/subscriptions", reader.token(), Map.of("group_id", group.path("id").asString()));
        String itemId = api.post("/api/v1/groups/" + group.path("id").asString() + "/posts", owner.token(),
                Map.of("text", "to the group")).json().path("id").asString();

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().path("source").path("kind").asString()).isEqualTo("group");
        assertThat(created.json().path("source").path("id").asString()).isEqualTo(group.path("source_id").asString());
        assertThat(created.json().path("source").path("title").asString()).isEqualTo("Readers welcome");
        Await.until("the group post in the follower's inbox", () -> readState.holds(reader.numericId(), Long.parseLong(itemId)));
    }

    @Test
    void unknownPeopleAndGroupsAre422AndFollowingYourselfToo() {
        TestUser alice = api.newUser("unk");

        ApiResponse nobody = api.post("/api/v1/subscriptions", alice.token(), Map.of("user", "nobody_by_this_name"));
        ApiResponse noGroup = api.post("/api/v1/subscriptions", alice.token(), Map.of("group_id", "123456789"));
        ApiResponse badGroupId = api.post("/api/v1/subscriptions", alice.token(), Map.of("group_id", "12ab"));
        ApiResponse self = api.post("/api/v1/subscriptions", alice.token(), Map.of("user", alice.username()));

        assertThat(nobody.status()).isEqualTo(422);
        assertThat(nobody.json().path("reason").asString()).isEqualTo("no_such_user");
        assertThat(noGroup.status()).isEqualTo(422);
        assertThat(noGroup.json().path("reason").asString()).isEqualTo("no_such_group");
        assertThat(badGroupId.status()).isEqualTo(400);
        assertThat(badGroupId.json().path("errors").findValuesAsString("field")).containsExactly("group_id");
        assertThat(self.status()).isEqualTo(422);
        assertThat(self.json().path("reason").asString()).isEqualTo("self");
    }

    @Test
    void exactlyOneTargetIsNeeded() {
        TestUser alice = api.newUser("one");

        ApiResponse none = api.post("/api/v1/subscriptions", alice.token(), Map.of("media", List.of("text")));
        ApiResponse two = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", "https://example.org/", "user", "bob"));

        assertThat(none.status()).isEqualTo(400);
        assertThat(none.json().path("errors").findValuesAsString("field")).containsExactlyInAnyOrder("url", "user", "group_id");
        assertThat(two.status()).isEqualTo(400);
        assertThat(two.json().path("errors").findValuesAsString("field")).containsExactlyInAnyOrder("url", "user");
    }

    @Test
    void badInputIsAClear400Or415() {
        TestUser alice = api.newUser("inp");
        String token = alice.token();

        ApiResponse unknownMedia = api.post("/api/v1/subscriptions", token, Map.of("user", "x", "media", List.of("text", "smell")));
        ApiResponse emptyMedia = api.post("/api/v1/subscriptions", token, Map.of("user", "x", "media", List.of()));
        ApiResponse mediaNotAList = api.post("/api/v1/subscriptions", token, "{\"user\": \"x\", \"media\": \"text\"}");
        ApiResponse malformed = api.post("/api/v1/subscriptions", token, "{\"url\": ");
        ApiResponse unknownField = api.post("/api/v1/subscriptions", token, Map.of("url", "https://example.org/", "folder", "x"));
        ApiResponse wrongType = api.post("/api/v1/subscriptions", token, "{\"url\": {\"a\": 1}}");
        ApiResponse hugeUrl = api.post("/api/v1/subscriptions", token, Map.of("url", "https://example.org/" + "a".repeat(100_000)));
        ApiResponse hugeUser = api.post("/api/v1/subscriptions", token, Map.of("user", "a".repeat(100_000)));
        ApiResponse noBody = api.post("/api/v1/subscriptions", token, null);
        ApiResponse xml = api.send("POST", "/api/v1/subscriptions", token, "<url/>", "application/xml");

        assertThat(unknownMedia.status()).isEqualTo(400);
        assertThat(unknownMedia.json().path("errors").findValuesAsString("field")).containsExactly("media");
        assertThat(emptyMedia.status()).isEqualTo(400);
        assertThat(emptyMedia.json().path("errors").findValuesAsString("field")).containsExactly("media");
        assertThat(mediaNotAList.status()).isEqualTo(400);
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(unknownField.status()).isEqualTo(400);
        assertThat(unknownField.json().path("errors").findValuesAsString("field")).containsExactly("folder");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(hugeUrl.status()).isEqualTo(400);
        assertThat(hugeUrl.json().path("errors").findValuesAsString("field")).containsExactly("url");
        assertThat(hugeUser.status()).isEqualTo(400);
        assertThat(noBody.status()).isEqualTo(400);
        assertThat(xml.status()).isEqualTo(415);
        for (ApiResponse response : List.of(unknownMedia, emptyMedia, mediaNotAList, malformed, unknownField, wrongType, hugeUrl, xml)) {
            assertThat(response.contentType()).startsWith("application/problem+json");
        }
    }

    @Test
    void theListIsTheCallersOnlyAndOthersCannotDeleteFromIt() {
        TestUser alice = api.newUser("own");
        TestUser bob = api.newUser("own");
        TestUser carol = api.newUser("own");
        String aliceFollowsCarol = api.post("/api/v1/subscriptions", alice.token(), Map.of("user", carol.username()))
                .json().path("id").asString();

        ApiResponse bobsList = api.get("/api/v1/subscriptions", bob.token());
        ApiResponse bobDeletes = api.delete("/api/v1/subscriptions/" + aliceFollowsCarol, bob.token());

        assertThat(bobsList.status()).isEqualTo(200);
        assertThat(bobsList.json().size()).isZero();
        assertThat(bobDeletes.status()).isEqualTo(404);
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().valueStream().map(s -> s.path("id").asString()))
                .containsExactly(aliceFollowsCarol);
    }

    @Test
    void unsubscribingIs204OnceThen404() {
        TestUser alice = api.newUser("uns");
        TestUser bob = api.newUser("uns");
        String id = api.post("/api/v1/subscriptions", alice.token(), Map.of("user", bob.username())).json().path("id").asString();

        ApiResponse first = api.delete("/api/v1/subscriptions/" + id, alice.token());
        ApiResponse second = api.delete("/api/v1/subscriptions/" + id, alice.token());
        ApiResponse notAnId = api.delete("/api/v1/subscriptions/abc", alice.token());
        ApiResponse tooLarge = api.delete("/api/v1/subscriptions/99999999999999999999999", alice.token());

        assertThat(first.status()).isEqualTo(204);
        assertThat(second.status()).isEqualTo(404);
        assertThat(notAnId.status()).isEqualTo(404);
        assertThat(tooLarge.status()).isEqualTo(404);
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isZero();
    }

    @Test
    void ownSourceIsNeitherListedNorDeletable() {
        TestUser alice = api.newUser("self");
        api.post("/api/v1/posts", alice.token(), Map.of("text", "my first post"));

        ApiResponse list = api.get("/api/v1/subscriptions", alice.token());

        assertThat(list.json().size()).isZero();
    }

    @Test
    void withoutATokenOrTheRightScopeIsRefused() {
        TestUser alice = api.newUser("tok");
        String readOnly = api.createToken(alice.username(), alice.password(), "ro", "read");

        assertThat(api.get("/api/v1/subscriptions", null).status()).isEqualTo(401);
        assertThat(api.post("/api/v1/subscriptions", null, Map.of("user", "x")).status()).isEqualTo(401);
        assertThat(api.get("/api/v1/subscriptions", readOnly).status()).isEqualTo(200);
        assertThat(api.post("/api/v1/subscriptions", readOnly, Map.of("user", "x")).status()).isEqualTo(403);
    }
}
