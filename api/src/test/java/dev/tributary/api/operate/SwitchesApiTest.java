package dev.tributary.api.operate;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Switches;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The operator's console: each switch, flipped on the management port, changes what the public API does. */
@ApiTest
class SwitchesApiTest {

    @LocalServerPort int port;
    @LocalManagementPort int managementPort;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired Switches switches;
    private ApiClient api;
    private ApiClient console;
    private Deliveries deliveries;

    @BeforeEach
    void clients() {
        api = new ApiClient(port);
        console = new ApiClient(managementPort);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    @AfterEach
    void everythingOnAgain() {
        // The switches live in the Redis every test context shares.
        for (Feature feature : Feature.values()) {
            switches.set(feature, true);
        }
    }

    @Test
    void theConsoleListsEverySwitchAndFlipsOne() {
        ApiResponse all = console.get("/actuator/switches", null);
        assertThat(all.status()).isEqualTo(200);
        assertThat(all.json().propertyNames()).containsExactly("live-streams", "page-cache", "subscribe-backfill", "comments",
                "opml-import", "new-feed-crawling", "full-articles");

        flip("comments", false);

        assertThat(console.get("/actuator/switches/comments", null).json().path("comments").asString()).isEqualTo("off");
        assertThat(console.get("/actuator/health", null).json().path("components").path("switches").path("details")
                .path("comments").asString()).isEqualTo("off");
        assertThat(prometheus()).contains("tributary_switch{feature=\"comments\"} 0.0")
                .contains("tributary_switch{feature=\"opml-import\"} 1.0");
    }

    @Test
    void anUnknownSwitchIsA404AndABadBodyIsRefused() {
        assertThat(post("everything", "off").status()).isEqualTo(404);
        assertThat(console.get("/actuator/switches/everything", null).status()).isEqualTo(404);
        assertThat(post("comments", "maybe").status()).isEqualTo(400);
        assertThat(console.send(json("/actuator/switches/comments")).status()).isBetween(400, 405);
        assertThat(switches.isOn(Feature.COMMENTS)).isTrue();
    }

    @Test
    void aFlipWithoutAJsonContentTypeIsRefusedAndChangesNothing() {
        ApiResponse bodyless = console.send(console.builder("/actuator/switches/comments/off", null)
                .POST(HttpRequest.BodyPublishers.noBody()));
        ApiResponse form = console.send(console.builder("/actuator/switches/comments/off", null)
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("x")));

        assertThat(bodyless.status()).as(bodyless.toString()).isEqualTo(415);
        assertThat(bodyless.contentType()).startsWith("application/problem+json");
        assertThat(form.status()).as(form.toString()).isEqualTo(415);
        assertThat(switches.isOn(Feature.COMMENTS)).isTrue();
    }

    @Test
    void aFlipFromAWebPageIsRefusedEvenAsJson() {
        ApiResponse fromPage = console.send(json("/actuator/switches/comments/off").header("Origin", "https://evil.example"));
        ApiResponse fromLocalPage = console.send(json("/actuator/switches/comments/off").header("Origin", "null"));

        assertThat(fromPage.status()).as(fromPage.toString()).isEqualTo(403);
        assertThat(fromPage.contentType()).startsWith("application/problem+json");
        assertThat(fromLocalPage.status()).isEqualTo(403);
        assertThat(switches.isOn(Feature.COMMENTS)).isTrue();
        assertThat(console.get("/actuator/switches/comments", null).json().path("comments").asString())
                .as("reads stay open to tools").isEqualTo("on");
    }

    @Test
    void commentsSwitchedOffAre503WithRetryAfterAndComeBack() {
        TestUser alice = api.newUser("dark");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        long item = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();
        flip("comments", false);

        ApiResponse refused = api.post("/api/v1/items/" + item + "/comments", alice.token(), Map.of("text", "hi"));

        assertUnavailable(refused, "comments");
        assertUnavailable(api.get("/api/v1/items/" + item + "/comments", alice.token()), "comments");
        assertThat(api.get("/api/v1/items/" + item, alice.token()).status()).as("the item itself is still served").isEqualTo(200);
        flip("comments", true);
        assertThat(api.post("/api/v1/items/" + item + "/comments", alice.token(), Map.of("text", "hi")).status()).isEqualTo(201);
    }

    @Test
    void opmlImportSwitchedOffIs503() {
        TestUser alice = api.newUser("opmldark");
        String opml = "<opml version=\"2.0\"><body><outline type=\"rss\" xmlUrl=\"https://feeds.example.test/"
                + UUID.randomUUID() + "\"/></body></opml>";
        flip("opml-import", false);

        assertUnavailable(api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "text/x-opml"), "opml-import");
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isZero();

        flip("opml-import", true);
        assertThat(api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "text/x-opml").status()).isEqualTo(200);
    }

    @Test
    void liveStreamsSwitchedOffAre503() {
        TestUser alice = api.newUser("streamdark");
        flip("live-streams", false);

        assertUnavailable(api.get("/api/v1/streaming/home", alice.token()), "live-streams");
    }

    @Test
    void subscribingWithBackfillSwitchedOffBringsOnlyWhatArrivesLater() {
        long feed = deliveries.feed();
        List<Long> earlier = deliveries.publish(feed, entry(MediaType.TEXT), entry(MediaType.TEXT));
        String url = sources.get(feed).body().url();
        TestUser withBackfill = api.newUser("fill");
        TestUser without = api.newUser("nofill");

        assertThat(api.post("/api/v1/subscriptions", withBackfill.token(), Map.of("url", url)).status()).isEqualTo(201);
        flip("subscribe-backfill", false);
        assertThat(api.post("/api/v1/subscriptions", without.token(), Map.of("url", url)).status()).isEqualTo(201);

        deliveries.awaitInTimeline(withBackfill, earlier);
        List<Long> later = deliveries.deliver(feed, List.of(without), entry(MediaType.TEXT));
        assertThat(deliveries.timelineIds(without)).containsExactlyElementsOf(later);
    }

    @Test
    void subscribingToAnUnknownFeedWithNewFeedCrawlingSwitchedOffIs503AndAKnownFeedStillWorks() {
        TestUser alice = api.newUser("newdark");
        String known = sources.get(deliveries.feed()).body().url();
        flip("new-feed-crawling", false);

        ApiResponse refused = api.post("/api/v1/subscriptions", alice.token(),
                Map.of("url", "http://127.0.0.1:9/" + UUID.randomUUID() + ".xml"));

        assertUnavailable(refused, "new-feed-crawling");
        assertThat(api.post("/api/v1/subscriptions", alice.token(), Map.of("url", known)).status()).isEqualTo(201);
    }

    @Test
    void thePageCacheSwitchedOffIsEmptiedAndGivesTheSameHomeTimeline() {
        TestUser alice = api.newUser("cachedark");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        List<Long> ids = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT), entry(MediaType.TEXT));
        String cached = api.get("/api/v1/timelines/home", alice.token()).body();
        assertThat(cachedPages()).as("the newest page is cached").isPositive();
        flip("page-cache", false);

        String fromMySql = api.get("/api/v1/timelines/home", alice.token()).body();

        assertThat(fromMySql).isEqualTo(cached).contains(String.valueOf(ids.getFirst()));
        assertThat(cachedPages()).as("memory given back").isZero();
        long more = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();
        assertThat(api.get("/api/v1/timelines/home", alice.token()).body()).contains(String.valueOf(more));
    }

    private String prometheus() {
        return console.send(console.builder("/actuator/prometheus", null).setHeader("Accept", "text/plain").GET()).body();
    }

    private double cachedPages() {
        for (String line : prometheus().split("\n")) {
            if (line.startsWith("tributary_api_page_cache_pages ")) {
                return Double.parseDouble(line.substring(line.indexOf(' ') + 1));
            }
        }
        throw new AssertionError("no page cache gauge");
    }

    /** Flips a switch on the management port and checks it took. */
    private void flip(String feature, boolean on) {
        ApiResponse flipped = post(feature, on ? "on" : "off");
        assertThat(flipped.status()).as(flipped.toString()).isEqualTo(200);
        assertThat(flipped.json().path(feature).asString()).isEqualTo(on ? "on" : "off");
    }

    private ApiResponse post(String feature, String state) {
        return console.send(json("/actuator/switches/" + feature + "/" + state));
    }

    /** A bodyless POST as an operator's tool sends it: naming JSON, which no web page can without a preflight. */
    private HttpRequest.Builder json(String path) {
        return console.builder(path, null).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.noBody());
    }

    private static void assertUnavailable(ApiResponse response, String feature) {
        assertThat(response.status()).as(response.toString()).isEqualTo(503);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.header("Retry-After")).isEqualTo("60");
        assertThat(response.json().path("feature").asString()).isEqualTo(feature);
    }
}
