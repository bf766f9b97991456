package dev.tributary.api.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServer;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.storage.testing.Await;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Issue 45, item 2: the first subscriber of a feed nobody followed gets exactly what a later
 * subscriber gets, the feed's newest 100 with no gaps; the fan-out of the items the first fetch
 * stored (which runs after the subscription) must not add older ones at random.
 */
@ApiTest
class FirstSubscriberApiTest {

    private static FeedServer server;

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;

    @BeforeAll
    static void startFeeds() {
        server = FeedServer.start();
    }

    @AfterAll
    static void stopFeeds() {
        server.close();
    }

    @Test
    void theFirstSubscriberOfAThreeHundredItemFeedGetsTheNewestHundredAsALaterOneDoes() {
        firstAndLaterSubscribersGetTheNewestHundred("fs300", 300);
    }

    @Test
    void theFirstSubscriberOfAFiveHundredItemFeedGetsTheNewestHundredAsALaterOneDoes() {
        firstAndLaterSubscribersGetTheNewestHundred("fs500", 500);
    }

    private void firstAndLaterSubscribersGetTheNewestHundred(String name, int size) {
        ApiClient api = new ApiClient(port);
        String path = "/first/" + name + ".xml";
        server.feed(path, TestFeeds.numbered(name, size, Instant.now().minusSeconds(60)));
        TestUser first = api.newUser(name + "a");
        ApiResponse subscribed = api.post("/api/v1/subscriptions", first.token(), Map.of("url", server.url(path).toString()));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        TestUser later = api.newUser(name + "b");
        assertThat(api.post("/api/v1/subscriptions", later.token(), Map.of("url", server.url(path).toString())).status())
                .isEqualTo(201);
        // The first fetch stored every item with a fan-out task each: all must have run.
        Await.until("fan-out of the first fetch done",
                () -> jdbc.sql("SELECT COUNT(*) FROM fanout_tasks").query(Long.class).single() == 0);

        List<String> newest = IntStream.rangeClosed(size - 99, size).map(i -> size - 99 + size - i)
                .mapToObj(i -> "https://example.org/" + name + "-" + i).toList();
        for (TestUser reader : List.of(first, later)) {
            JsonNode counts = api.get("/api/v1/unread", reader.token()).json();
            assertThat(counts.path("total").asLong()).as("%s's unread", reader.username()).isEqualTo(100);
            assertThat(unreadUrls(api, reader)).as("%s's unread entries", reader.username()).isEqualTo(newest);
        }
    }

    /** Every unread entry's link, newest first, paged by max_id. */
    static List<String> unreadUrls(ApiClient api, TestUser reader) {
        List<String> urls = new ArrayList<>();
        String maxId = null;
        while (true) {
            JsonNode page = api.get("/api/v1/timelines/home?unread=true&limit=100" + (maxId == null ? "" : "&max_id=" + maxId),
                    reader.token()).json();
            if (page.isEmpty()) {
                return urls;
            }
            page.valueStream().forEach(item -> urls.add(item.path("url").asString()));
            maxId = page.get(page.size() - 1).path("id").asString();
        }
    }
}
