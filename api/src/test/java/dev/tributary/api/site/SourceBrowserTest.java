package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.refresh.FeedRefresher;
import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.FetchRecord;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** A source's page: health (also of a feed that broke), subscribe toggle, items, people's and groups' sources. */
@BrowserTest
class SourceBrowserTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final Instant NEWEST = Instant.now().minusSeconds(600);

    @LocalServerPort int port;
    @Autowired CrawlStates crawlStates;
    @Autowired FeedRefresher refresher;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void aFeedThatBrokeShowsStatusErrorAndItsLastError(Browser browser) throws InterruptedException {
        TestUser alice = api.newUser("webbroken");
        String sourceId = subscribe(alice, "/source/breaks.xml", TestFeeds.numbered("Breaks", 2, NEWEST));
        // The feed breaks after its first fetch; the next crawl (claimed now, as a manual refresh
        // would, rather than waiting minutes for its turn) records the error.
        FEEDS.respond("/source/breaks.xml", 500, Map.of("Content-Type", "text/plain"), "boom");
        CrawlState claimed = crawlStates.claim(Long.parseLong(sourceId), "browser-test", Duration.ofMinutes(1)).orElseThrow();
        FetchRecord record = refresher.refresh(claimed);
        assertThat(record).isNotNull();
        String lastError = api.get("/api/v1/sources/" + sourceId, alice.token()).json().path("last_error").asString();
        assertThat(lastError).isNotBlank();

        browser.signIn(alice.username(), alice.password());
        browser.open("/sources/" + sourceId);
        browser.waitForText("#source-title", "Breaks");
        assertThat(browser.text("#source-health .badge.status")).isEqualTo("Error");
        assertThat(browser.text("#source-health .last-error")).isEqualTo(lastError);
        assertThat(browser.text("#source-health .next-fetch")).startsWith("in ");
        browser.waitForText(".item-title", "Breaks entry 2");

        browser.open("/sources");
        browser.waitForText(".subscription-row .badge.status", "Error");
        assertThat(browser.find(".subscription-row .badge.status").getAttribute("title")).isEqualTo(lastError);
        browser.click(".subscription-row .manage");
        browser.waitForText("#subscription-panel .badge.status", "Error");
        assertThat(browser.text("#subscription-panel .last-error")).isEqualTo(lastError);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void subscribesAndUnsubscribesFromTheSourcePage(Browser browser) {
        TestUser alice = api.newUser("webtoggle");
        TestUser bob = api.newUser("webtoggle");
        String sourceId = subscribe(bob, "/source/toggle.xml", TestFeeds.numbered("Toggle", 2, NEWEST));
        browser.signIn(alice.username(), alice.password());

        browser.open("/sources/" + sourceId);
        browser.waitForText("#source-actions .follow", "Subscribe");
        assertThat(browser.find("#source-about .feed-url").getText()).isEqualTo(FEEDS.url("/source/toggle.xml").toString());
        browser.click("#source-actions .follow");
        browser.waitForText("#source-actions .follow", "Unfollow");
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().findValuesAsString("id")).contains(sourceId);

        browser.click("#source-actions .follow");
        browser.waitForText("#source-actions .confirm", "Stop following?");
        browser.click("#source-actions .confirm-yes");
        browser.waitForText("#source-actions .follow", "Subscribe");
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isZero();

        browser.resize(375, 800);
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void peoplesAndGroupsSourcesLinkToTheirPages(Browser browser) {
        TestUser alice = api.newUser("webkind");
        TestUser bob = api.newUser("webkind");
        String bobSource = api.post("/api/v1/posts", bob.token(), Map.of("text", "Bob was here")).json()
                .path("source").path("id").asString();
        // Bob's open group: Alice, not a member, still reaches it from its source (a closed one is its members' alone).
        ApiResponse group = api.post("/api/v1/groups", bob.token(), Map.of("name", "Source club", "open", true));
        String groupId = group.json().path("id").asString();
        String groupSource = group.json().path("source_id").asString();
        browser.signIn(alice.username(), alice.password());

        browser.open("/sources/" + bobSource);
        browser.waitForText("#source-title", bob.username());
        assertThat(browser.find("#source-about .owner-link").getAttribute("href")).endsWith("/people/" + bob.username());
        assertThat(browser.text("#source-health")).contains("nothing is fetched");
        browser.waitForText(".item", "Bob was here");

        browser.open("/sources/" + groupSource);
        browser.waitForText("#source-title", "Source club");
        browser.waitFor("#source-about .owner-link");
        assertThat(browser.find("#source-about .owner-link").getAttribute("href")).endsWith("/groups/" + groupId);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void aSourcesPageShowsTheCallersUnreadItemsFirst(Browser browser) {
        TestUser alice = api.newUser("webunread");
        String sourceId = subscribe(alice, "/source/unread.xml", TestFeeds.numbered("Unread", 3, NEWEST));
        String read = api.get("/api/v1/timelines/home?source_id=" + sourceId, alice.token()).json().get(0).path("id").asString();
        assertThat(api.post("/api/v1/items/" + read + "/read", alice.token(), null).status()).isEqualTo(204);
        browser.signIn(alice.username(), alice.password());

        browser.open("/sources/" + sourceId);
        browser.waitForText("#source-unread-heading", "Unread (2)");
        browser.waitForText("#source-unread .item-title", "Unread entry 2");
        assertThat(browser.all("#source-unread .item")).hasSize(2);
        assertThat(browser.text("#source-unread")).doesNotContain("Unread entry 3");
        browser.waitForText("#source-items .item-title", "Unread entry 3");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void anUnknownSourceSaysSo(Browser browser) {
        TestUser alice = api.newUser("webnosrc");
        browser.signIn(alice.username(), alice.password());

        browser.open("/sources/999999999999");
        browser.waitForText("#source-missing", "This source was not found.");
        assertThat(browser.find("#source-found").isDisplayed()).isFalse();
    }

    private String subscribe(TestUser user, String path, String feed) {
        FEEDS.feed(path, feed);
        ApiResponse created = api.post("/api/v1/subscriptions", user.token(), Map.of("url", FEEDS.url(path).toString()));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().path("source").path("id").asString();
    }
}
