package dev.tributary.api.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class SourceApiTest {

    private static final Instant NEWEST = Instant.now().minusSeconds(600);
    private static final Pattern LINK = Pattern.compile("<([^>]+)>; rel=\"(next|prev)\"");
    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void aFeedSourceShowsItsHealth() {
        TestUser alice = api.newUser("src");
        String sourceId = subscribe(alice, "/health.xml", TestFeeds.numbered("Healthy", 2, NEWEST));

        ApiResponse source = api.get("/api/v1/sources/" + sourceId, alice.token());

        assertThat(source.status()).isEqualTo(200);
        assertThat(source.json().path("id").asString()).isEqualTo(sourceId);
        assertThat(source.json().path("kind").asString()).isEqualTo("feed");
        assertThat(source.json().path("title").asString()).isEqualTo("Healthy");
        assertThat(source.json().path("status").asString()).isEqualTo("ok");
        assertThat(source.json().has("next_fetch_at")).isTrue();
        assertThat(source.json().has("last_error")).isTrue();
        assertThat(source.json().path("group_id").isNull()).isTrue();
    }

    @Test
    void anOpenGroupsSourceNamesTheGroupForAnyone() {
        TestUser owner = api.newUser("srcg");
        TestUser outsider = api.newUser("srcg");
        // Open: a closed group's source is its members' alone (ClosedGroupApiTest).
        ApiResponse group = api.post("/api/v1/groups", owner.token(), Map.of("name", "Gardeners", "open", true));

        ApiResponse source = api.get("/api/v1/sources/" + group.json().path("source_id").asString(), outsider.token());

        assertThat(source.status()).as(source.toString()).isEqualTo(200);
        assertThat(source.json().path("kind").asString()).isEqualTo("group");
        assertThat(source.json().path("title").asString()).isEqualTo("Gardeners");
        assertThat(source.json().path("group_id").asString()).isEqualTo(group.json().path("id").asString());
    }

    @Test
    void aPersonsSourceIsNamedByTheirUsernameAndNeverCrawled() {
        TestUser alice = api.newUser("srcu");
        TestUser bob = api.newUser("srcu");
        String sourceId = api.post("/api/v1/posts", bob.token(), Map.of("text", "hi")).json().path("source").path("id").asString();

        ApiResponse source = api.get("/api/v1/sources/" + sourceId, alice.token());

        assertThat(source.status()).isEqualTo(200);
        assertThat(source.json().path("kind").asString()).isEqualTo("user");
        assertThat(source.json().path("title").asString()).isEqualTo(bob.username());
        assertThat(source.json().path("status").asString()).isEqualTo("ok");
        assertThat(source.json().path("url").isNull()).isTrue();
        assertThat(source.json().path("last_fetched_at").isNull()).isTrue();
        assertThat(source.json().path("next_fetch_at").isNull()).isTrue();
        assertThat(source.json().path("last_error").isNull()).isTrue();
    }

    @Test
    void itemsArePagedFarBackWithLinks() {
        TestUser alice = api.newUser("page");
        String sourceId = subscribe(alice, "/paged.xml", TestFeeds.numbered("Paged", 25, NEWEST));

        ApiResponse first = api.get("/api/v1/sources/" + sourceId + "/items?limit=10", alice.token());
        ApiResponse second = api.get(path(links(first).get("next")), alice.token());
        ApiResponse third = api.get(path(links(second).get("next")), alice.token());
        ApiResponse back = api.get(path(links(second).get("prev")), alice.token());

        assertThat(first.status()).isEqualTo(200);
        assertThat(titles(first)).containsExactly(range("Paged", 25, 16));
        assertThat(titles(second)).containsExactly(range("Paged", 15, 6));
        assertThat(titles(third)).containsExactly(range("Paged", 5, 1));
        assertThat(titles(back)).as("prev is what is immediately newer").containsExactly(range("Paged", 25, 16));
        assertThat(first.json().get(0).path("source").path("id").asString()).isEqualTo(sourceId);
        assertThat(first.json().get(0).path("read").isBoolean()).isTrue();
        ApiResponse end = api.get(path(links(third).get("next")), alice.token());
        assertThat(end.json().size()).isZero();
        assertThat(end.header("Link")).isNull();
    }

    @Test
    void sinceIdAndMinIdBoundTheNewerSide() {
        TestUser alice = api.newUser("since");
        String sourceId = subscribe(alice, "/since.xml", TestFeeds.numbered("Since", 6, NEWEST));
        JsonNode all = api.get("/api/v1/sources/" + sourceId + "/items", alice.token()).json();
        String third = all.get(3).path("id").asString();

        ApiResponse since = api.get("/api/v1/sources/" + sourceId + "/items?limit=2&since_id=" + third, alice.token());
        ApiResponse min = api.get("/api/v1/sources/" + sourceId + "/items?limit=2&min_id=" + third, alice.token());

        assertThat(titles(since)).containsExactly("Since entry 6", "Since entry 5");
        assertThat(titles(min)).containsExactly("Since entry 5", "Since entry 4");
    }

    @Test
    void unknownAndMalformedIdsAre404AndBadPagingIs400() {
        TestUser alice = api.newUser("srcbad");
        String itemId = api.post("/api/v1/posts", alice.token(), Map.of("text", "an item, not a source")).json().path("id").asString();

        assertThat(api.get("/api/v1/sources/999999999999", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/sources/abc", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/sources/-1", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/sources/" + itemId, alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/sources/abc/items", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/sources/999999999999/items", alice.token()).status()).isEqualTo(404);
        ApiResponse badLimit = api.get("/api/v1/sources/1/items?limit=1000", alice.token());
        ApiResponse badMax = api.get("/api/v1/sources/1/items?max_id=x", alice.token());
        assertThat(badLimit.status()).isEqualTo(400);
        assertThat(badLimit.json().path("errors").findValuesAsString("field")).containsExactly("limit");
        assertThat(badMax.status()).isEqualTo(400);
        assertThat(badMax.json().path("errors").findValuesAsString("field")).containsExactly("max_id");
        assertThat(api.get("/api/v1/sources/1", null).status()).isEqualTo(401);
    }

    private String subscribe(TestUser user, String path, String feed) {
        server.feed(path, feed);
        ApiResponse created = api.post("/api/v1/subscriptions", user.token(), Map.of("url", server.url(path).toString()));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().path("source").path("id").asString();
    }

    private static String[] range(String title, int from, int downTo) {
        List<String> titles = new ArrayList<>();
        for (int i = from; i >= downTo; i--) {
            titles.add(title + " entry " + i);
        }
        return titles.toArray(String[]::new);
    }

    private static List<String> titles(ApiResponse response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json().valueStream().map(item -> item.path("title").asString()).toList();
    }

    static Map<String, String> links(ApiResponse response) {
        Map<String, String> links = new java.util.HashMap<>();
        Matcher matcher = LINK.matcher(response.header("Link"));
        while (matcher.find()) {
            links.put(matcher.group(2), matcher.group(1));
        }
        return links;
    }

    private static String path(String url) {
        URI uri = URI.create(url);
        return uri.getRawPath() + "?" + uri.getRawQuery();
    }
}
