package dev.tributary.api.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServer;
import dev.tributary.crawler.testing.TestFeeds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Issue 14 as a reader moving from another service meets it: 200 feeds of 20 current items each,
 * followed one by one (each fetched at once) by an early reader, and then, already known, imported
 * by OPML by a late one. Both see all 4,000 unread, from all 200 sources, over HTTP.
 */
@ApiTest
class UnreadHorizonApiTest {

    private static final int FEEDS = 200;
    private static final int ITEMS = 20;

    private static FeedServer server;

    @LocalServerPort int port;

    @BeforeAll
    static void startFeeds() {
        server = FeedServer.start();
    }

    @AfterAll
    static void stopFeeds() {
        server.close();
    }

    @Test
    void twoHundredFeedsOfTwentyAreAllUnreadForEarlyAndLateSubscribersAndMarkAllReadSaysHowMany() {
        ApiClient api = new ApiClient(port);
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < FEEDS; i++) {
            String path = "/horizon/" + i + ".xml";
            server.feed(path, TestFeeds.numbered("h" + i, ITEMS, Instant.now().minusSeconds(60)));
            urls.add(server.url(path).toString());
        }
        TestUser early = api.newUser("hzearly");
        for (String url : urls) {
            ApiResponse subscribed = api.post("/api/v1/subscriptions", early.token(), Map.of("url", url));
            assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        }
        TestUser late = api.newUser("hzlate");
        StringBuilder outlines = new StringBuilder();
        urls.forEach(url -> outlines.append("<outline type=\"rss\" xmlUrl=\"").append(url).append("\"/>\n"));
        ApiResponse imported = api.send("POST", "/api/v1/subscriptions/import", late.token(),
                "<?xml version=\"1.0\"?><opml version=\"2.0\"><head/><body>" + outlines + "</body></opml>", "text/x-opml");
        assertThat(imported.json().path("imported").asInt()).as(imported.toString()).isEqualTo(FEEDS);

        JsonNode earlyCounts = api.get("/api/v1/unread", early.token()).json();
        JsonNode lateCounts = api.get("/api/v1/unread", late.token()).json();
        assertThat(earlyCounts.path("total").asLong()).isEqualTo(FEEDS * ITEMS);
        assertThat(earlyCounts.path("by_source").size()).isEqualTo(FEEDS);
        assertThat(earlyCounts.path("by_source").valueStream().map(JsonNode::asLong)).containsOnly((long) ITEMS);
        assertThat(earlyCounts.path("trimmed_unread").asLong()).isZero();
        assertThat(lateCounts).as("a late subscriber's counts equal an early one's").isEqualTo(earlyCounts);

        // Every unread entry can be listed, far past the home timeline's 800, paged by max_id.
        Set<String> listed = new HashSet<>();
        String maxId = null;
        String newest = null;
        for (int pages = 0; pages < FEEDS * ITEMS / 100 + 2; pages++) {
            JsonNode page = api.get("/api/v1/timelines/home?unread=true&limit=100" + (maxId == null ? "" : "&max_id=" + maxId),
                    late.token()).json();
            if (page.isEmpty()) {
                break;
            }
            page.valueStream().forEach(item -> listed.add(item.path("id").asString()));
            newest = newest == null ? page.get(0).path("id").asString() : newest;
            maxId = page.get(page.size() - 1).path("id").asString();
        }
        assertThat(listed).hasSize(FEEDS * ITEMS);
        assertThat(api.get("/api/v1/timelines/home?limit=100&max_id=" + maxId, late.token()).json().isEmpty())
                .as("the unfiltered home timeline still ends at its window").isTrue();

        ApiResponse marked = api.post("/api/v1/markers", late.token(), Map.of("up_to_id", newest));
        assertThat(marked.status()).as(marked.toString()).isEqualTo(200);
        assertThat(marked.json().path("marked").asInt()).isEqualTo(FEEDS * ITEMS);
        assertThat(api.get("/api/v1/unread", late.token()).json().path("total").asLong()).isZero();
        assertThat(api.get("/api/v1/unread", early.token()).json()).isEqualTo(earlyCounts);
    }

    @Test
    void absurdMarkersAreAClearClientError() {
        ApiClient api = new ApiClient(port);
        TestUser reader = api.newUser("hzbad");
        for (Object upTo : List.of("99999999999999999999999", "-1", "0", "1e9", "", List.of("1"), Map.of("id", "1"))) {
            ApiResponse answer = api.post("/api/v1/markers", reader.token(), Map.of("up_to_id", upTo));
            assertThat(answer.status()).as("%s: %s", upTo, answer).isEqualTo(400);
            assertThat(answer.contentType()).startsWith("application/problem+json");
        }
        ApiResponse badSource = api.post("/api/v1/markers", reader.token(), Map.of("up_to_id", "5", "source_id", "x".repeat(10_000)));
        assertThat(badSource.status()).isEqualTo(400);
        ApiResponse largest = api.post("/api/v1/markers", reader.token(), Map.of("up_to_id", Long.toString(Long.MAX_VALUE)));
        assertThat(largest.status()).isEqualTo(200);
        assertThat(largest.json().path("marked").asInt()).isZero();
        assertThat(api.get("/api/v1/timelines/home?unread=true&max_id=99999999999999999999999", reader.token()).status())
                .isEqualTo(400);
    }
}
