package dev.tributary.api.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.io.SyndFeedInput;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.storage.testing.Await;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The whole product through HTTP only: two people (one with a personal access token, one through
 * the OAuth authorization-code + PKCE flow) subscribe to feeds on a local server, read and filter
 * their home timeline, count and mark unread entries, follow each other and see a post arrive on
 * the live stream, comment and like, and read their home feed back as RSS with Rome.
 */
@ApiTest
class EndToEndTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @LocalServerPort int port;

    @Test
    void twoPeopleUseTheWholeProductThroughHttp() throws Exception {
        ApiClient api = new ApiClient(port);
        Instant newest = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        FEEDS.feed("/e2e/news.xml", TestFeeds.numbered("News", 3, newest));
        FEEDS.feed("/e2e/photos.xml", photoFeed(newest));

        // Two people: Alice by personal access token, Bob by the full OAuth flow.
        TestUser alice = api.newUser("alice");
        TestUser bobAccount = api.newUser("bob");
        String bob = new OAuthFlow(port).tokensFor(bobAccount, "read", "write").accessToken();
        assertThat(api.get("/api/v1/me", bob).json().path("username").asString()).isEqualTo(bobAccount.username());

        // Alice subscribes to two feeds; the crawl publishes them and fan-out fills her inbox.
        assertThat(api.post("/api/v1/subscriptions", alice.token(), Map.of("url", FEEDS.url("/e2e/news.xml").toString()))
                .status()).isEqualTo(201);
        assertThat(api.post("/api/v1/subscriptions", alice.token(), Map.of("url", FEEDS.url("/e2e/photos.xml").toString()))
                .status()).isEqualTo(201);
        JsonNode home = Await.value("five entries in Alice's home timeline", PATIENCE,
                () -> api.get("/api/v1/timelines/home?limit=50", alice.token()).json(), page -> page.size() == 5);
        assertThat(home.findValuesAsString("media_type")).containsOnly("link", "image");

        // Filter by media type.
        JsonNode images = api.get("/api/v1/timelines/home?media=image", alice.token()).json();
        assertThat(images.size()).isEqualTo(2);
        assertThat(images.findValuesAsString("media_type")).containsOnly("image");

        // Unread counts, then mark one read and the rest by marker.
        JsonNode unread = api.get("/api/v1/unread", alice.token()).json();
        assertThat(unread.path("total").asLong()).isEqualTo(5);
        assertThat(unread.path("by_media").path("image").asLong()).isEqualTo(2);
        String newestId = home.get(0).path("id").asString();
        assertThat(api.post("/api/v1/items/" + newestId + "/read", alice.token(), null).status()).isEqualTo(204);
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isEqualTo(4);
        ApiResponse marked = api.post("/api/v1/markers", alice.token(), Map.of("up_to_id", newestId));
        assertThat(marked.json().path("marked").asLong()).isEqualTo(4);
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isZero();

        // Alice follows Bob and listens on the live stream; Bob posts; the post arrives.
        assertThat(api.post("/api/v1/subscriptions", alice.token(), Map.of("user", bobAccount.username())).status())
                .isEqualTo(201);
        BlockingQueue<String> events = new ArrayBlockingQueue<>(1000);
        InputStream stream = openStream(api, alice.token(), events);
        try {
            ApiResponse post = api.post("/api/v1/posts", bob, Map.of("text", "Hello from Bob", "tags", List.of("hello")));
            assertThat(post.status()).isEqualTo(201);
            String postId = post.json().path("id").asString();
            String data = awaitEvent(events, "item", PATIENCE);
            assertThat(data).contains(postId).contains("Hello from Bob");

            // Comment and like; the item shows the counts.
            assertThat(api.post("/api/v1/items/" + postId + "/comments", alice.token(), Map.of("text", "Hi Bob!")).status())
                    .isEqualTo(201);
            assertThat(api.post("/api/v1/items/" + postId + "/like", alice.token(), null).status()).isBetween(200, 204);
            JsonNode withBob = api.get("/api/v1/timelines/home?limit=1", alice.token()).json().get(0);
            assertThat(withBob.path("id").asString()).isEqualTo(postId);
            assertThat(withBob.path("likes_count").asLong()).isEqualTo(1);
            assertThat(withBob.path("comments_count").asLong()).isEqualTo(1);
            assertThat(api.get("/api/v1/items/" + postId + "/comments", bob).json().findValuesAsString("text"))
                    .containsExactly("Hi Bob!");

            // The private home feed, as a feed reader sees it, parsed back with Rome.
            String feedToken = api.post("/api/v1/me/feed_token", alice.token(), null).json().path("feed_token").asString();
            ApiResponse rss = api.send(api.builder("/feeds/home.rss?token=" + feedToken, null).header("Accept", "*/*"));
            assertThat(rss.status()).isEqualTo(200);
            SyndFeed feed = new SyndFeedInput().build(new StringReader(rss.body()));
            assertThat(feed.getEntries()).hasSize(6);
            assertThat(feed.getEntries().stream().map(SyndEntry::getTitle).toList()).contains("News entry 3");
            assertThat(feed.getEntries().getFirst().getDescription().getValue()).contains("Hello from Bob");
        } finally {
            stream.close();
        }
    }

    private static String photoFeed(Instant newest) {
        StringBuilder items = new StringBuilder();
        for (int i = 1; i <= 2; i++) {
            items.append("<item><guid>photo-").append(i).append("</guid><title>Photo ").append(i).append("</title>")
                    .append("<link>https://example.org/photo/").append(i).append("</link>")
                    .append("<enclosure url=\"https://example.org/photo/").append(i)
                    .append(".jpg\" type=\"image/jpeg\" length=\"1000\"/>")
                    .append("<pubDate>").append(DateTimeFormatter.RFC_1123_DATE_TIME.format(
                            newest.minusSeconds(600L * i).atOffset(ZoneOffset.UTC))).append("</pubDate></item>");
        }
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>Photos</title><link>https://example.org/</link>
                <description>photos</description>%s</channel></rss>
                """.formatted(items);
    }

    /** Opens the SSE stream and feeds "event\ndata" pairs into {@code events} from a virtual thread. */
    private static InputStream openStream(ApiClient api, String token, BlockingQueue<String> events) throws Exception {
        HttpRequest request = api.builder("/api/v1/streaming/home", token).header("Accept", "text/event-stream")
                .timeout(Duration.ofMinutes(2)).GET().build();
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        InputStream body = response.body();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                String event = "message";
                for (String line; (line = lines.readLine()) != null; ) {
                    if (line.startsWith("event:")) {
                        event = line.substring(6).strip();
                    } else if (line.startsWith("data:")) {
                        events.offer(event + "\n" + line.substring(5).strip());
                    } else if (line.isEmpty()) {
                        event = "message";
                    }
                }
            } catch (java.io.IOException closed) {
                // the test closed the stream
            }
        });
        return body;
    }

    private static String awaitEvent(BlockingQueue<String> events, String type, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (System.nanoTime() < deadline) {
            String event = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (event != null && event.startsWith(type + "\n")) {
                return event.substring(type.length() + 1);
            }
        }
        throw new AssertionError("no '" + type + "' event within " + patience);
    }
}
