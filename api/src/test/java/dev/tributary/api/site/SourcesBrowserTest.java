package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** The sources page: subscribing (by page or feed url), refusals, media filters, unsubscribing, profile feeds. */
@BrowserTest
class SourcesBrowserTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final Instant NEWEST = Instant.now().minusSeconds(600);
    private static final String HOSTILE = "<img src=x onerror=\"window.__pwned=1\">";

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void subscribesByWebPageAndTheSourcePageShowsItsItems(Browser browser) {
        FEEDS.feed("/sources/site/feed.xml", TestFeeds.numbered("Discovered", 3, NEWEST));
        FEEDS.feed("/sources/site/", TestFeeds.htmlPage(FEEDS.url("/sources/site/feed.xml").toString()),
                "text/html; charset=utf-8", Map.of());
        TestUser alice = api.newUser("websrc");
        browser.signIn(alice.username(), alice.password());

        browser.open("/sources");
        browser.waitForText("#subscriptions-empty", "You don’t follow anything yet");
        browser.type("#subscribe-url", FEEDS.url("/sources/site/").toString());
        browser.click("#subscribe-form button[type=submit]");

        browser.waitForText("#subscribe-result", "Subscribed to Discovered.");
        browser.waitForText(".subscription-row[data-kind=feed]", "Discovered");
        assertThat(browser.text(".subscription-row .badge.status")).isEqualTo("OK");
        assertThat(browser.text(".subscription-row .last-fetched")).isNotEqualTo("Not yet");
        assertThat(browser.find(".subscription-row .last-fetched time").getAttribute("title"))
                .as("the exact time on hover").isNotBlank();
        browser.click(".subscription-row .manage");
        assertThat(browser.text("#subscription-panel .source-url"))
                .isEqualTo(FEEDS.url("/sources/site/feed.xml").toString());
        assertThat(browser.text("#subscription-count")).isEqualTo("(1)");

        // The same page again: the API answers 200 with the existing subscription.
        browser.type("#subscribe-url", FEEDS.url("/sources/site/").toString());
        browser.click("#subscribe-form button[type=submit]");
        browser.waitForText("#subscribe-result", "You are already subscribed to Discovered.");
        assertThat(browser.all(".subscription-row")).hasSize(1);

        browser.click(".subscription-row .source-link");
        browser.waitForText("#source-title", "Discovered");
        browser.waitForText("#source-items .item-title", "Discovered entry 3");
        assertThat(browser.all("#source-items .item")).hasSize(3);
        assertThat(browser.all("#source-unread .item")).as("a new subscriber's items, all unread, first").hasSize(3);
        assertThat(browser.text("#source-health .badge.status")).isEqualTo("OK");
        // A short first page is the last: no "Load more", and the list says it ended.
        browser.waitForText("#source-items .timeline-end", "everything");
        assertThat(browser.find("#source-items .load-more").isDisplayed()).isFalse();
        assertThat(browser.all("#source-items .item")).hasSize(3);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void refusalsAreShownReadably(Browser browser) {
        FEEDS.feed("/sources/plain/", "<!doctype html><html><head><title>No feed</title></head><body>hi</body></html>",
                "text/html; charset=utf-8", Map.of());
        TestUser alice = api.newUser("webrefuse");
        browser.signIn(alice.username(), alice.password());
        browser.open("/sources");

        browser.click("#subscribe-form button[type=submit]");
        browser.waitForText("#subscribe-error", "Enter the address of a feed");

        browser.type("#subscribe-url", FEEDS.url("/sources/plain/").toString());
        browser.click("#subscribe-form button[type=submit]");
        String refusal = browser.waitFor("#subscribe-error").getText();
        assertThat(refusal).isNotBlank().doesNotContain("{").doesNotContain("422");
        assertThat(refusal).isEqualTo(api.post("/api/v1/subscriptions", alice.token(),
                Map.of("url", FEEDS.url("/sources/plain/").toString())).json().path("detail").asString());

        browser.type("#subscribe-url", "not a url at all");
        browser.click("#subscribe-form button[type=submit]");
        browser.waitUntil("a different refusal", () -> !browser.text("#subscribe-error").equals(refusal)
                && !browser.text("#subscribe-error").isBlank());
        assertThat(browser.text("#subscribe-error")).doesNotContain("{");

        browser.type("#follow-username", "nobody_at_all_here");
        browser.click("#follow-form button[type=submit]");
        browser.waitForText("#follow-error", "Nobody is called 'nobody_at_all_here'.");
        browser.type("#follow-username", alice.username());
        browser.click("#follow-form button[type=submit]");
        browser.waitForText("#follow-error", "You cannot follow yourself");

        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isZero();
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void aHostileFeedTitleShowsAsText(Browser browser) {
        // Escaped in the feed, so the crawler's plain-text titles decode it to the markup itself.
        String escaped = HOSTILE.replace("<", "&lt;").replace(">", "&gt;");
        FEEDS.feed("/sources/hostile.xml", TestFeeds.rss(escaped, List.of(
                new TestFeeds.Entry("h-1", escaped, "<p>body</p>", NEWEST))));
        TestUser alice = api.newUser("webhostile");
        subscribe(alice, "/sources/hostile.xml", null);
        browser.signIn(alice.username(), alice.password());

        browser.open("/sources");
        browser.waitForText(".subscription-row .source-link", HOSTILE);
        browser.click(".subscription-row .manage");
        browser.click("#subscription-panel .source-details");
        browser.waitForText("#source-title", HOSTILE);
        browser.waitForText(".item-title", HOSTILE);
        assertThat(browser.all("#source-page img")).isEmpty();
        assertThat(browser.script("return window.__pwned")).isNull();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void changesAMediaFilterAndUnsubscribesAfterConfirming(Browser browser) {
        FEEDS.feed("/sources/filtered.xml", TestFeeds.numbered("Filtered", 2, NEWEST));
        TestUser alice = api.newUser("webmedia");
        subscribe(alice, "/sources/filtered.xml", List.of("link"));
        browser.signIn(alice.username(), alice.password());

        browser.open("/sources");
        browser.click(".subscription-row .manage");
        browser.waitForText(".subscription .media-value", "Links");
        browser.click(".subscription .change-media");
        assertThat(browser.find(".media-form input[value=link]").isSelected()).isTrue();
        browser.click(".media-form input[value=link]");
        browser.click(".media-form input[value=text]");
        browser.click(".media-form input[value=image]");
        browser.click(".media-form .save-media");
        browser.waitForText(".subscription .media-value", "Text, Images");
        JsonNode media = api.get("/api/v1/subscriptions", alice.token()).json().get(0).path("media");
        assertThat(media.valueStream().map(JsonNode::asString).toList()).containsExactlyInAnyOrder("text", "image");

        // No box ticked: every kind again.
        browser.click(".subscription .change-media");
        browser.click(".media-form input[value=text]");
        browser.click(".media-form input[value=image]");
        browser.click(".media-form .save-media");
        browser.waitForText(".subscription .media-value", "All kinds");
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().get(0).path("media").isNull()).isTrue();

        // Unsubscribing asks first; cancelling keeps the subscription.
        browser.click(".subscription .unsubscribe");
        browser.waitForText(".subscription .confirm", "Unsubscribe from Filtered?");
        browser.click(".subscription .confirm-no");
        browser.waitUntil("the confirmation to close", () -> !browser.exists(".confirm"));
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isEqualTo(1);

        browser.click(".subscription .unsubscribe");
        browser.click(".subscription .confirm-yes");
        browser.waitForText("#subscriptions-empty", "You don’t follow anything yet");
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isZero();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void subscribesWithAMediaFilterAndListsPeopleSeparately(Browser browser) {
        FEEDS.feed("/sources/images.xml", TestFeeds.numbered("Pictures", 1, NEWEST));
        TestUser alice = api.newUser("webkinds");
        TestUser bob = api.newUser("webkinds");
        browser.signIn(alice.username(), alice.password());
        browser.open("/sources");

        browser.type("#subscribe-url", FEEDS.url("/sources/images.xml").toString());
        browser.click("#subscribe-media-image");
        browser.click("#subscribe-form button[type=submit]");
        browser.click(".subscription-row[data-kind=feed] .manage");
        browser.waitForText(".subscription .media-value", "Images");

        browser.type("#follow-username", bob.username());
        browser.click("#follow-form button[type=submit]");
        browser.waitForText("#follow-result", "You now follow " + bob.username() + ".");
        browser.waitForText(".subscription-row[data-kind=user] .source-link", bob.username());
        assertThat(browser.find(".subscription-row[data-kind=user] .source-link").getAttribute("href"))
                .endsWith("/people/" + bob.username());
        assertThat(browser.text(".subscription-row[data-kind=user] .last-fetched")).isEmpty();
        assertThat(browser.all(".subscription-row[data-kind=user] .refresh-now")).as("people are not fetched").isEmpty();
        browser.click(".subscription-row[data-kind=user] .manage");
        browser.waitForText("#subscription-panel .health-note", "nothing is fetched");
        assertThat(browser.text("#subscription-count")).isEqualTo("(2)");

        browser.resize(375, 800);
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void attachesAFeedToTheProfileAndRemovesIt(Browser browser) {
        FEEDS.feed("/sources/mine.xml", TestFeeds.numbered("My blog", 2, NEWEST));
        TestUser alice = api.newUser("webattach");
        browser.signIn(alice.username(), alice.password());
        browser.open("/sources");
        browser.waitForText("#profile-feeds", "No feeds on your profile.");

        browser.type("#profile-feed-url", "http://127.0.0.1:1/nothing-listens-here");
        browser.click("#profile-feed-form button[type=submit]");
        assertThat(browser.waitFor("#profile-feed-error").getText()).isNotBlank().doesNotContain("{");

        browser.type("#profile-feed-url", FEEDS.url("/sources/mine.xml").toString());
        browser.click("#profile-feed-form button[type=submit]");
        browser.waitForText("#profile-feeds .profile-feed", "My blog");
        assertThat(api.get("/api/v1/me/feeds", alice.token()).json().size()).isEqualTo(1);

        // The attached feed's items are on the person's page.
        browser.open("/people/" + alice.username());
        browser.waitForText(".item-title", "My blog entry 2");

        browser.open("/sources");
        browser.click("#profile-feeds .detach");
        browser.click("#profile-feeds .confirm-yes");
        browser.waitForText("#profile-feeds", "No feeds on your profile.");
        assertThat(api.get("/api/v1/me/feeds", alice.token()).json().size()).isZero();
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    private void subscribe(TestUser user, String path, List<String> media) {
        Map<String, Object> body = media == null ? Map.of("url", FEEDS.url(path).toString())
                : Map.of("url", FEEDS.url(path).toString(), "media", media);
        ApiResponse created = api.post("/api/v1/subscriptions", user.token(), body);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
    }
}
