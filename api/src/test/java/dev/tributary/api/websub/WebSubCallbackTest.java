package dev.tributary.api.websub;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.crawler.testing.TestHub;
import dev.tributary.crawler.websub.HubSignature;
import dev.tributary.pubsub.Items;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * WebSub end to end over HTTP: the app subscribes to a hub the test runs, the hub verifies
 * intent through the app's real callback endpoint and then pushes signed content to it.
 */
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
class WebSubCallbackTest {

    private static final int PORT = freePort();
    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final TestHub HUB = TestHub.start();
    private static final Instant NEWEST = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("server.port", () -> PORT);
        registry.add("server.address", () -> "127.0.0.1");
        registry.add("tributary.public-url", () -> "http://127.0.0.1:" + PORT);
        registry.add("tributary.crawler.allow-private", () -> "127.0.0.0/8");
        registry.add("tributary.crawler.concurrency", () -> "0");
        registry.add("tributary.crawler.max-body-size", () -> "64KB");
        registry.add("tributary.crawler.max-decompressed-size", () -> "128KB");
    }

    @AfterAll
    static void stopHub() {
        HUB.close();
    }

    @Autowired FeedResolver resolver;
    @Autowired Items items;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void theHubVerifiesThroughTheCallbackAndItsSignedPushesArePublished() {
        String topic = FEEDS.url("/pushed.xml").toString();
        FEEDS.feed("/pushed.xml", feedNamingTheHub("Pushed", 1, topic));

        long source = resolver.resolve(topic).id();
        awaitVerified(topic);

        TestHub.Subscriber subscriber = HUB.verified().stream().filter(s -> s.topic().equals(topic)).findFirst().orElseThrow();
        assertThat(subscriber.callback().toString()).matches("http://127\\.0\\.0\\.1:" + PORT + "/websub/" + source + "/[0-9a-f]{32}");
        byte[] update = feedNamingTheHub("Pushed", 3, topic).getBytes(StandardCharsets.UTF_8);

        assertThat(HUB.publish(topic, update, "application/rss+xml")).containsExactly(202);

        assertThat(items.ofSource(source, null, null, 10)).hasSize(3);
    }

    @Test
    void forgedAndUnknownPushesPublishNothing() {
        String topic = FEEDS.url("/guarded.xml").toString();
        FEEDS.feed("/guarded.xml", feedNamingTheHub("Guarded", 1, topic));
        long source = resolver.resolve(topic).id();
        awaitVerified(topic);
        URI callback = URI.create("http://127.0.0.1:" + PORT + "/websub/" + source);
        byte[] forged = feedNamingTheHub("Forged", 5, topic).getBytes(StandardCharsets.UTF_8);

        assertThat(HUB.post(callback, forged, "application/rss+xml", null)).isEqualTo(202);
        assertThat(HUB.post(callback, forged, "application/rss+xml", HubSignature.header("sha256", forged, "guess")))
                .isEqualTo(202);
        assertThat(HUB.post(URI.create("http://127.0.0.1:" + PORT + "/websub/999999999"), forged, "application/rss+xml",
                null)).isEqualTo(410);

        assertThat(items.ofSource(source, null, null, 10)).hasSize(1);
    }

    @Test
    void anIntentCheckWithoutTheCallbackKeyIsRefusedOverHttp() throws Exception {
        String topic = FEEDS.url("/keyed.xml").toString();
        FEEDS.feed("/keyed.xml", feedNamingTheHub("Keyed", 1, topic));
        long source = resolver.resolve(topic).id();
        awaitVerified(topic);
        String intent = "?hub.mode=denied&hub.topic=" + java.net.URLEncoder.encode(topic, StandardCharsets.UTF_8)
                + "&hub.challenge=c";

        assertThat(get("/websub/" + source + intent).statusCode()).as("the source id alone").isEqualTo(404);
        assertThat(get("/websub/" + source + "/" + "0".repeat(32) + intent).statusCode()).isEqualTo(404);
        assertThat(get("/websub/" + source + "/" + "%00".repeat(10) + intent).statusCode()).isBetween(400, 404);

        // Still pushed to: the forged "denied" changed nothing.
        byte[] update = feedNamingTheHub("Keyed", 2, topic).getBytes(StandardCharsets.UTF_8);
        assertThat(HUB.publish(topic, update, "application/rss+xml")).containsExactly(202);
        assertThat(items.ofSource(source, null, null, 10)).hasSize(2);
    }

    @Test
    void verificationsWeDidNotAskForAreRefused() throws Exception {
        assertThat(get("/websub/999999999?hub.mode=subscribe&hub.topic=x&hub.challenge=c").statusCode()).isEqualTo(404);
        assertThat(get("/websub/1").statusCode()).isEqualTo(404);
        assertThat(get("/websub/not-a-number?hub.mode=subscribe").statusCode()).isEqualTo(400);
        assertThat(get("/websub/-5?hub.mode=subscribe&hub.topic=x&hub.challenge=c").statusCode()).isEqualTo(404);
    }

    @Test
    void anOversizePushIsRefusedUnread() throws Exception {
        byte[] huge = new byte[200 * 1024];
        HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + PORT + "/websub/1"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(huge)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.discarding());

        assertThat(response.statusCode()).isEqualTo(413);
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + PORT + path)).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String feedNamingTheHub(String title, int entries, String self) {
        String feed = TestFeeds.numbered(title, entries, NEWEST);
        return feed.replace("<description>test</description>", "<description>test</description><atom:link rel=\"hub\" href=\""
                + HUB.url() + "\"/><atom:link rel=\"self\" href=\"" + self + "\"/>");
    }

    /** Waits for the hub to verify {@code topic}; a timeout names the verifications the hub refused. */
    private static void awaitVerified(String topic) {
        Await.until(() -> "the hub to verify " + topic + "; hub refusals: " + HUB.refusedVerifications(),
                () -> HUB.verified().stream().anyMatch(s -> s.topic().equals(topic)));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

}
