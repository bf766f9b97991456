package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.WebSubCallbacks.Delivery;
import dev.tributary.crawler.schedule.FetchRecord;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.crawler.websub.HubSignature;
import dev.tributary.crawler.websub.HubSubscriptions;
import dev.tributary.crawler.websub.WebSubscription;
import dev.tributary.pubsub.Items;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;

/** Tributary as a WebSub subscriber, against a hub run by the test (the callback endpoint's HTTP side is tested in the api). */
@WithEmbeddedCrawler
class WebSubTest {

    private static final Instant NEWEST = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);

    @Autowired Crawl crawl;
    @Autowired FeedResolver resolver;
    @Autowired WebSubCallbacks callbacks;
    @Autowired HubSubscriptions hubs;
    @Autowired Items items;

    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();
    private final String prefix = "/" + UUID.randomUUID();

    @Test
    void aFeedNamingAHubIsSubscribedToVerifiedAndThenPolledRarely() {
        long feed = hubFeed(202);

        crawl.refresh(feed);

        Map<String, String> request = hubRequest(0);
        assertThat(request).containsEntry("hub.mode", "subscribe")
                .containsEntry("hub.topic", topic())
                .hasEntrySatisfying("hub.callback", callback -> assertThat(callback)
                        .matches("https://tributary\\.example/websub/" + feed + "/[0-9a-f]{32}"))
                .containsEntry("hub.lease_seconds", Long.toString(Duration.ofDays(7).toSeconds()));
        assertThat(request.get("hub.secret")).matches("[0-9a-f]{48}");
        assertThat(hubs.isPushed(feed)).as("not before the hub verifies").isFalse();

        assertThat(callbacks.verify(feed, key(0), "subscribe", topic(), "challenge-123", "864000", null)).contains("challenge-123");

        assertThat(hubs.isPushed(feed)).isTrue();
        assertThat(hubs.find(feed).orElseThrow().leaseUntil()).isAfter(Instant.now().plus(Duration.ofDays(9)));
        FetchRecord next = crawl.refresh(feed);
        assertThat(next.interval()).isEqualTo(Duration.ofHours(24));
        assertThat(server.requests(prefix + "/hub")).as("a live lease is not renewed").hasSize(1);
    }

    @Test
    void intentsWeDidNotAskForAreNotConfirmed() {
        long feed = hubFeed(202);
        crawl.refresh(feed);

        assertThat(callbacks.verify(feed, key(0), "subscribe", "https://evil.example/feed", "c", "600", null)).isEmpty();
        assertThat(callbacks.verify(feed, key(0), "unsubscribe", topic(), "c", null, null)).isEmpty();
        assertThat(callbacks.verify(feed, key(0), "subscribe", topic(), "c", "not-a-number", null)).isEmpty();
        assertThat(callbacks.verify(feed, key(0), null, topic(), "c", null, null)).isEmpty();
        assertThat(callbacks.verify(Long.MAX_VALUE, key(0), "subscribe", topic(), "c", null, null)).isEmpty();
        assertThat(hubs.isPushed(feed)).isFalse();
    }

    @Test
    void anIntentWithoutTheSubscriptionsCallbackKeyIsAForgery() {
        long feed = hubFeed(202);
        crawl.refresh(feed);
        String key = key(0);
        String wrong = (key.charAt(0) == '0' ? "1" : "0") + key.substring(1);

        // Knowing the source id and the topic (both public) is not enough to confirm, or to deny.
        assertThat(callbacks.verify(feed, null, "subscribe", topic(), "c", "600", null)).isEmpty();
        assertThat(callbacks.verify(feed, wrong, "subscribe", topic(), "c", "600", null)).isEmpty();
        assertThat(callbacks.verify(feed, key.substring(0, 8), "subscribe", topic(), "c", "600", null)).isEmpty();
        assertThat(callbacks.verify(feed, "x".repeat(5000), "subscribe", topic(), "c", "600", null)).isEmpty();
        assertThat(callbacks.verify(feed, wrong, "denied", topic(), null, null, "forged")).isEmpty();
        assertThat(hubs.find(feed).orElseThrow().state()).isEqualTo(WebSubscription.State.PENDING);

        assertThat(callbacks.verify(feed, key, "subscribe", topic(), "c", "600", null)).contains("c");
        assertThat(hubs.isPushed(feed)).isTrue();
    }

    @Test
    void signedContentIsPublishedAndAnythingElseIgnored() {
        long feed = hubFeed(202);
        crawl.refresh(feed);
        String secret = hubRequest(0).get("hub.secret");
        callbacks.verify(feed, key(0), "subscribe", topic(), "c", "600", null);
        byte[] pushed = TestFeeds.numbered("Pushed", 3, NEWEST).getBytes(StandardCharsets.UTF_8);
        byte[] forged = TestFeeds.numbered("Forged", 5, NEWEST).getBytes(StandardCharsets.UTF_8);

        assertThat(callbacks.deliver(feed, key(0), null, forged, "application/rss+xml")).isEqualTo(Delivery.REJECTED);
        assertThat(callbacks.deliver(feed, key(0), HubSignature.header("sha256", forged, "wrong"), forged, null))
                .isEqualTo(Delivery.REJECTED);
        assertThat(callbacks.deliver(feed, key(0), "sha256=zz", forged, null)).isEqualTo(Delivery.REJECTED);
        assertThat(callbacks.deliver(feed, key(0), "md5=" + "0".repeat(32), forged, null)).isEqualTo(Delivery.REJECTED);
        assertThat(titles(feed)).noneMatch(title -> title.startsWith("Forged"));

        assertThat(callbacks.deliver(feed, "0".repeat(32), HubSignature.header("sha256", pushed, secret), pushed, null))
                .as("signed, but to another subscription's callback").isEqualTo(Delivery.REJECTED);
        assertThat(callbacks.deliver(feed, key(0), HubSignature.header("sha256", pushed, secret), pushed, "application/rss+xml"))
                .isEqualTo(Delivery.PUBLISHED);
        assertThat(titles(feed)).contains("Pushed entry 1", "Pushed entry 2", "Pushed entry 3");

        byte[] again = TestFeeds.numbered("Again", 1, NEWEST).getBytes(StandardCharsets.UTF_8);
        assertThat(callbacks.deliver(feed, null, HubSignature.header("sha1", again, secret), again, null)).isEqualTo(Delivery.PUBLISHED);
        byte[] garbage = "this is not a feed".getBytes(StandardCharsets.UTF_8);
        assertThat(callbacks.deliver(feed, key(0), HubSignature.header("sha512", garbage, secret), garbage, "text/plain"))
                .isEqualTo(Delivery.UNREADABLE);
        assertThat(callbacks.deliver(Long.MAX_VALUE, key(0), null, pushed, null)).isEqualTo(Delivery.UNKNOWN);
        assertThat(hubs.find(feed).orElseThrow().deliveries()).isEqualTo(3);
    }

    @Test
    void aLeaseAboutToEndIsRenewedWithANewSecret() {
        long feed = hubFeed(202);
        crawl.refresh(feed);
        callbacks.verify(feed, key(0), "subscribe", topic(), "c", "60", null);
        assertThat(hubs.isPushed(feed)).isTrue();

        crawl.refresh(feed);

        assertThat(server.requests(prefix + "/hub")).hasSize(2);
        assertThat(hubRequest(1).get("hub.secret")).isNotEqualTo(hubRequest(0).get("hub.secret"));
        assertThat(key(1)).isNotEqualTo(key(0));
        assertThat(callbacks.verify(feed, key(0), "subscribe", topic(), "c", "60", null)).as("the old key is spent").isEmpty();
        assertThat(hubs.find(feed).orElseThrow().state()).isEqualTo(WebSubscription.State.PENDING);
    }

    @Test
    void aHubThatRefusesOrDeniesLeavesTheFeedPolled() {
        long refused = hubFeed(400);
        crawl.refresh(refused);
        assertThat(hubs.find(refused).orElseThrow().state()).isEqualTo(WebSubscription.State.DENIED);
        assertThat(hubs.find(refused).orElseThrow().lastError()).contains("400");

        server.respond(prefix + "/hub", 202, Map.of(), "");
        long denied = resolver.register(server.url(prefix + "/other.xml").toString()).id();
        server.feed(prefix + "/other.xml", feedWithHub("/other.xml"));
        crawl.refresh(denied);
        assertThat(callbacks.verify(denied, key(1), "denied", server.url(prefix + "/other.xml").toString(), null, null,
                "not allowed")).contains("");

        assertThat(hubs.find(denied).orElseThrow().state()).isEqualTo(WebSubscription.State.DENIED);
        assertThat(hubs.isPushed(denied)).isFalse();
        assertThat(crawl.refresh(denied).interval()).isLessThan(Duration.ofHours(24));
    }

    /** The callback key the {@code index}th request to the hub carried (the last segment of its callback). */
    private String key(int index) {
        String callback = hubRequest(index).get("hub.callback");
        return callback.substring(callback.lastIndexOf('/') + 1);
    }

    private long hubFeed(int hubStatus) {
        server.respond(prefix + "/hub", hubStatus, Map.of(), hubStatus == 202 ? "" : "bad request");
        server.feed(prefix + "/feed.xml", feedWithHub("/feed.xml"));
        return resolver.register(topic()).id();
    }

    private String feedWithHub(String self) {
        return TestFeeds.rss("Hubbed", """
                <atom:link rel="hub" href="%s"/><atom:link rel="self" href="%s"/>
                """.formatted(server.url(prefix + "/hub"), server.url(prefix + self)),
                List.of(new TestFeeds.Entry("h-2", "two", "x", NEWEST), new TestFeeds.Entry("h-1", "one", "x", NEWEST.minusSeconds(3600))));
    }

    private String topic() {
        return server.url(prefix + "/feed.xml").toString();
    }

    private Map<String, String> hubRequest(int index) {
        String body = server.requests(prefix + "/hub").get(index).bodyText();
        return Arrays.stream(body.split("&")).map(pair -> pair.split("=", 2)).collect(Collectors.toMap(
                pair -> URLDecoder.decode(pair[0], StandardCharsets.UTF_8),
                pair -> URLDecoder.decode(pair.length > 1 ? pair[1] : "", StandardCharsets.UTF_8)));
    }

    private List<String> titles(long feed) {
        return items.ofSource(feed, null, null, 50).stream().map(item -> item.body().title()).toList();
    }
}
