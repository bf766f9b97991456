package dev.tributary.api.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

@ApiTest
class ProfileApiTest {

    private static final Pattern NEXT = Pattern.compile("<([^>]+)>; rel=\"next\"");
    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void aPersonsFeedIsTheirPostsNewestFirstPagedFarBack() {
        TestUser alice = api.newUser("prof");
        TestUser reader = api.newUser("prof");
        for (int i = 1; i <= 5; i++) {
            assertThat(api.post("/api/v1/posts", alice.token(), Map.of("text", "post " + i)).status()).isEqualTo(201);
        }

        ApiResponse first = api.get("/api/v1/users/" + alice.username() + "/feed?limit=3", reader.token());
        ApiResponse rest = api.get(next(first), reader.token());

        assertThat(first.status()).isEqualTo(200);
        assertThat(summaries(first)).containsExactly("<p>post 5</p>", "<p>post 4</p>", "<p>post 3</p>");
        assertThat(summaries(rest)).containsExactly("<p>post 2</p>", "<p>post 1</p>");
    }

    @Test
    void attachedFeedsJoinTheProfile() {
        TestUser alice = api.newUser("att");
        server.feed("/blog.xml", TestFeeds.numbered("Blog", 2, Instant.now().minusSeconds(7200)));

        ApiResponse attached = api.post("/api/v1/me/feeds", alice.token(), Map.of("url", server.url("/blog.xml").toString()));
        ApiResponse again = api.post("/api/v1/me/feeds", alice.token(), Map.of("url", server.url("/blog.xml").toString()));
        api.post("/api/v1/posts", alice.token(), Map.of("text", "newest post"));
        ApiResponse list = api.get("/api/v1/me/feeds", alice.token());
        ApiResponse feed = api.get("/api/v1/users/" + alice.username() + "/feed", alice.token());

        assertThat(attached.status()).as(attached.toString()).isEqualTo(201);
        assertThat(attached.json().path("kind").asString()).isEqualTo("feed");
        assertThat(attached.json().path("title").asString()).isEqualTo("Blog");
        assertThat(again.status()).isEqualTo(200);
        assertThat(list.json().valueStream().map(s -> s.path("id").asString())).containsExactly(attached.json().path("id").asString());
        assertThat(feed.json().valueStream().map(item -> item.path("source").path("kind").asString()))
                .containsExactly("user", "feed", "feed");
    }

    @Test
    void detachingIsTheCallersOwnBusiness() {
        TestUser alice = api.newUser("det");
        TestUser mallory = api.newUser("det");
        server.feed("/detach.xml", TestFeeds.numbered("Detach", 1, Instant.now().minusSeconds(60)));
        String sourceId = api.post("/api/v1/me/feeds", alice.token(), Map.of("url", server.url("/detach.xml").toString()))
                .json().path("id").asString();

        ApiResponse malloryDetaches = api.delete("/api/v1/me/feeds/" + sourceId, mallory.token());
        ApiResponse malloryLists = api.get("/api/v1/me/feeds", mallory.token());
        ApiResponse aliceDetaches = api.delete("/api/v1/me/feeds/" + sourceId, alice.token());
        ApiResponse again = api.delete("/api/v1/me/feeds/" + sourceId, alice.token());

        assertThat(malloryDetaches.status()).isEqualTo(404);
        assertThat(malloryLists.json().size()).isZero();
        assertThat(aliceDetaches.status()).isEqualTo(204);
        assertThat(again.status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/me/feeds/abc", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/me/feeds", alice.token()).json().size()).isZero();
    }

    @Test
    void badAttachmentsAndUnknownPeople() {
        TestUser alice = api.newUser("attbad");
        server.respond("/gone.xml", 404, Map.of(), "");

        ApiResponse unreachable = api.post("/api/v1/me/feeds", alice.token(), Map.of("url", server.url("/gone.xml").toString()));
        ApiResponse missing = api.post("/api/v1/me/feeds", alice.token(), Map.of());
        ApiResponse unknown = api.post("/api/v1/me/feeds", alice.token(), Map.of("url", "https://example.org/", "x", 1));
        ApiResponse huge = api.post("/api/v1/me/feeds", alice.token(), Map.of("url", "https://e.org/" + "a".repeat(5000)));
        ApiResponse wrongType = api.post("/api/v1/me/feeds", alice.token(), "{\"url\": [\"a\"]}");

        assertThat(unreachable.status()).isEqualTo(422);
        assertThat(unreachable.json().path("reason").asString()).isNotEmpty();
        for (ApiResponse response : List.of(missing, unknown, huge, wrongType)) {
            assertThat(response.status()).as(response.toString()).isEqualTo(400);
        }
        assertThat(api.get("/api/v1/users/nobody_here_at_all/feed", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/users/" + "x".repeat(500) + "/feed", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/users/" + alice.username() + "/feed?limit=0", alice.token()).status()).isEqualTo(400);
        assertThat(api.get("/api/v1/users/" + alice.username() + "/feed?since_id=-5", alice.token()).status()).isEqualTo(400);
    }

    private static List<String> summaries(ApiResponse response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json().valueStream().map(item -> item.path("summary").asString()).toList();
    }

    private static String next(ApiResponse response) {
        Matcher matcher = NEXT.matcher(response.header("Link"));
        assertThat(matcher.find()).isTrue();
        URI uri = URI.create(matcher.group(1));
        return uri.getRawPath() + "?" + uri.getRawQuery();
    }
}
