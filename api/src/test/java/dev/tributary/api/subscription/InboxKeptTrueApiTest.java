package dev.tributary.api.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServer;
import dev.tributary.crawler.testing.TestFeeds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** Issue 45, items 3 and 5 over HTTP: unsubscribing takes its unread along; folder rules act on subscriptions made into the folder. */
@ApiTest
class InboxKeptTrueApiTest {

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

    private String feed(String name, List<TestFeeds.Entry> entries) {
        String path = "/kept/" + name + ".xml";
        server.feed(path, TestFeeds.rss(name, entries));
        return server.url(path).toString();
    }

    @Test
    void unsubscribingFromAFeedWithTwentyUnreadTakesThemOutOfTheTotal() {
        ApiClient api = new ApiClient(port);
        TestUser reader = api.newUser("unsub");
        String gone = server.url("/kept/gone.xml").toString();
        server.feed("/kept/gone.xml", TestFeeds.numbered("gone", 20, Instant.now().minusSeconds(60)));
        server.feed("/kept/stays.xml", TestFeeds.numbered("stays", 3, Instant.now().minusSeconds(60)));
        ApiResponse subscribed = api.post("/api/v1/subscriptions", reader.token(), Map.of("url", gone));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        assertThat(api.post("/api/v1/subscriptions", reader.token(), Map.of("url", server.url("/kept/stays.xml").toString())).status())
                .isEqualTo(201);
        assertThat(api.get("/api/v1/unread", reader.token()).json().path("total").asLong()).isEqualTo(23);

        assertThat(api.delete("/api/v1/subscriptions/" + subscribed.json().path("id").asString(), reader.token()).status())
                .isEqualTo(204);

        JsonNode counts = api.get("/api/v1/unread", reader.token()).json();
        assertThat(counts.path("total").asLong()).isEqualTo(3);
        assertThat(counts.path("by_source").valueStream().mapToLong(JsonNode::asLong).sum()).isEqualTo(3);
        assertThat(FirstSubscriberApiTest.unreadUrls(api, reader)).hasSize(3);
        assertThat(api.get("/api/v1/timelines/home?limit=100", reader.token()).json().size())
                .as("the feed's entries stay as read history").isEqualTo(23);
    }

    @Test
    void aDropRuleOnAFolderActsOnASubscriptionMadeIntoItAndOnAnImportIntoIt() {
        ApiClient api = new ApiClient(port);
        TestUser reader = api.newUser("folderrule");
        ApiResponse folder = api.post("/api/v1/folders", reader.token(), Map.of("name", "Quiet"));
        assertThat(folder.status()).as(folder.toString()).isEqualTo(201);
        String folderId = folder.json().path("id").asString();
        ApiResponse rule = api.post("/api/v1/rules", reader.token(),
                Map.of("action", "drop", "field", "title", "pattern", "zap", "folder_id", folderId));
        assertThat(rule.status()).as(rule.toString()).isEqualTo(201);
        Instant now = Instant.now().minusSeconds(60);
        String direct = feed("direct", List.of(new TestFeeds.Entry("d1", "zap one", "x", now),
                new TestFeeds.Entry("d2", "keep one", "x", now.minusSeconds(60))));
        String imported = feed("imported", List.of(new TestFeeds.Entry("i1", "zap two", "x", now),
                new TestFeeds.Entry("i2", "keep two", "x", now.minusSeconds(60))));

        ApiResponse subscribed = api.post("/api/v1/subscriptions", reader.token(), Map.of("url", direct, "folder_ids", List.of(folderId)));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        assertThat(subscribed.json().path("folders").get(0).path("id").asString()).isEqualTo(folderId);
        ApiResponse done = api.send("POST", "/api/v1/subscriptions/import", reader.token(),
                "<?xml version=\"1.0\"?><opml version=\"2.0\"><head/><body><outline text=\"Quiet\">"
                        + "<outline type=\"rss\" text=\"imp\" xmlUrl=\"" + imported + "\"/></outline></body></opml>", "text/x-opml");
        assertThat(done.json().path("imported").asInt()).as(done.toString()).isEqualTo(1);

        List<String> titles = new ArrayList<>();
        api.get("/api/v1/timelines/home?unread=true", reader.token()).json().valueStream()
                .forEach(item -> titles.add(item.path("title").asString()));
        assertThat(titles).containsExactlyInAnyOrder("keep one", "keep two");
        assertThat(api.get("/api/v1/unread", reader.token()).json().path("total").asLong()).isEqualTo(2);
    }
}
