package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.storage.testing.DeferredIndexing;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The search box in the navigation bar, the results page, its marked words, hostile text kept as
 * text, and the timeline's filters on the results page (kept in the URL).
 */
@BrowserTest
class SearchBrowserTest {

    private static final String PASSWORD = "correct horse battery";

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;

    @Test
    void theNavigationBoxSearchesAndMarksTheWordsWithoutRunningMarkup(Browser browser) {
        ApiClient api = new ApiClient(port);
        TestUser poster = api.newUser("searchposter");
        String username = ApiClient.uniqueUsername("searcher");
        browser.signUp(username, PASSWORD);
        String token = api.createToken(username, PASSWORD, "setup", "read", "write");
        ApiResponse followed = api.post("/api/v1/subscriptions", token, Map.of("user", poster.username()));
        assertThat(followed.status()).as(followed.toString()).isEqualTo(201);
        String word = "q" + UUID.randomUUID().toString().substring(0, 8);
        String hit = api.post("/api/v1/posts", poster.token(),
                Map.of("text", "Java垃圾回收调优 " + word + " <img src=x onerror=alert(1)>")).json().path("id").asString();
        api.post("/api/v1/posts", poster.token(), Map.of("text", "nothing to see"));
        DeferredIndexing.awaitDrained(jdbc);

        browser.open("/");
        browser.type("#search-q", "垃圾回收 " + word).press(Keys.ENTER);
        browser.waitUntil("the search page with one hit", () -> browser.path().equals("/search")
                && browser.all("#search-results .search-hit").size() == 1);
        WebElement card = browser.find("#search-results .search-hit");
        assertThat(card.getAttribute("data-id")).isEqualTo(hit);
        List<String> marked = browser.all("#search-results mark").stream().map(WebElement::getText).toList();
        assertThat(marked).contains("垃圾回收", word);
        assertThat(browser.all("#search-results img")).as("the post's text stays text").isEmpty();
        assertThat(browser.find("#search-page-q").getAttribute("value")).isEqualTo("垃圾回收 " + word);

        browser.open("/search?q=" + word + "zzz");
        browser.waitForText("#search-results .timeline-end", "Nothing found.");
        browser.open("/search?q=%F0%9F%9A%80");
        browser.waitUntil("the refusal shown", () -> browser.find("#search-error").isDisplayed()
                && browser.text("#search-error").contains("no words"));
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void theResultsPageFiltersByMediaFolderAndUnreadKeepsThemInTheUrlAndStillMarksTheWords(Browser browser) {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("searchfilter");
        long feedA = deliveries.feed();
        long feedB = deliveries.feed();
        deliveries.follow(alice, feedA);
        deliveries.follow(alice, feedB);
        String word = "f" + UUID.randomUUID().toString().substring(0, 8);
        List<Long> fromA = deliveries.deliver(feedA, List.of(alice), entry(word + " alpha", MediaType.TEXT),
                entry(word + " beta", MediaType.VIDEO));
        List<Long> fromB = deliveries.deliver(feedB, List.of(alice), entry(word + " gamma", MediaType.TEXT));
        String folder = api.post("/api/v1/folders", alice.token(), Map.of("name", "Reading")).json().path("id").asString();
        for (var subscription : api.get("/api/v1/subscriptions", alice.token()).json()) {
            if (subscription.path("source").path("id").asString().equals(String.valueOf(feedB))) {
                ApiResponse filed = api.send("PATCH", "/api/v1/subscriptions/" + subscription.path("id").asString(),
                        alice.token(), Map.of("folder_ids", List.of(folder)), "application/json");
                assertThat(filed.status()).as(filed.toString()).isEqualTo(200);
            }
        }
        DeferredIndexing.awaitDrained(jdbc);
        browser.signIn(alice.username(), alice.password());

        browser.open("/search?q=" + word);
        awaitHits(browser, "every hit", fromA.get(0), fromA.get(1), fromB.get(0));
        browser.click("#search-filters input[name=media][value=video]");
        awaitHits(browser, "the video only", fromA.get(1));
        assertThat(browser.url()).contains("q=" + word).contains("media=video");
        assertThat(browser.all("#search-results mark").stream().map(WebElement::getText).toList()).contains(word, word);
        browser.click("#search-filters input[name=media][value=video]");
        awaitHits(browser, "every hit again", fromA.get(0), fromA.get(1), fromB.get(0));

        browser.waitFor("#search-scope option[value='folder:" + folder + "']");
        browser.script("const s = arguments[0]; s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true}));",
                browser.find("#search-scope"), "folder:" + folder);
        awaitHits(browser, "the folder's source only", fromB.get(0));
        assertThat(browser.url()).contains("folder_id=" + folder);
        browser.open(browser.url().substring(browser.base().length()));
        awaitHits(browser, "the folder's source after a reload", fromB.get(0));
        browser.waitUntil("the folder picked again", () -> ("folder:" + folder).equals(browser.find("#search-scope").getAttribute("value")));
        browser.script("history.back()");
        awaitHits(browser, "every hit after Back", fromA.get(0), fromA.get(1), fromB.get(0));

        assertThat(api.post("/api/v1/items/" + fromA.get(0) + "/read", alice.token(), null).status()).isLessThan(300);
        browser.click("#search-unread");
        awaitHits(browser, "the unread ones", fromA.get(1), fromB.get(0));
        assertThat(browser.url()).contains("unread=true");
        browser.click("#search-clear");
        awaitHits(browser, "every hit once cleared", fromA.get(0), fromA.get(1), fromB.get(0));
        assertThat(browser.find("#search-truncated").isDisplayed()).as("a rare word is searched whole").isFalse();
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void aStoryThreeFeedsCarryIsOneResultThatSaysItsStateAndCanBeMarkedAndStarred(Browser browser) {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("searchacts");
        String word = "a" + UUID.randomUUID().toString().substring(0, 8);
        String url = "https://stories.example/" + word;
        java.util.List<Long> copies = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long feed = deliveries.feed();
            deliveries.follow(alice, feed);
            copies.addAll(deliveries.publish(feed, new NewItem(UUID.randomUUID().toString(), "Feed readers " + word, "<p>Summary</p>",
                    url, null, MediaType.TEXT, List.of(), List.of(), Instant.now().minus(1, ChronoUnit.HOURS))));
        }
        dev.tributary.storage.testing.Await.until("the story once in the timeline, also in two feeds", () -> api.get(
                "/api/v1/timelines/home?limit=100", alice.token()).json().valueStream()
                .anyMatch(item -> copies.contains(Long.parseLong(item.path("id").asString())) && item.path("also_in").size() == 2));
        DeferredIndexing.awaitDrained(jdbc);
        browser.signIn(alice.username(), alice.password());

        browser.open("/search?q=" + word + "+%22feed+reader%22");
        browser.waitUntil("one result for the story", () -> browser.all("#search-results .search-hit").size() == 1);
        String id = browser.find("#search-results .search-hit").getAttribute("data-id");
        assertThat(copies).contains(Long.parseLong(id));
        assertThat(browser.text("#search-results .search-hit .search-state")).isEqualTo("Unread");
        assertThat(browser.text("#search-results .search-hit .item-also-in")).startsWith("also in");

        browser.click("#search-results .search-hit .mark-read");
        browser.waitUntil("marked read", () -> browser.text("#search-results .search-hit .search-state").equals("Read"));
        assertThat(browser.find("#search-results .search-hit").getAttribute("class")).contains("read");
        assertThat(api.get("/api/v1/items/" + id, alice.token()).json().path("read").asBoolean()).isTrue();
        browser.click("#search-results .search-hit .star-toggle");
        browser.waitUntil("starred", () -> "true".equals(browser.find("#search-results .search-hit .star-toggle").getAttribute("aria-pressed")));
        assertThat(api.get("/api/v1/items/" + id, alice.token()).json().path("starred").asBoolean()).isTrue();
        browser.click("#search-results .search-hit .mark-read");
        browser.waitUntil("marked unread again", () -> browser.text("#search-results .search-hit .search-state").equals("Unread"));
        assertThat(api.get("/api/v1/items/" + id, alice.token()).json().path("read").asBoolean()).isFalse();

        browser.open("/search?q=" + word + "+%22reader+feed%22");
        browser.waitForText("#search-results .timeline-end", "Nothing found.");
        browser.open("/search?q=%22open");
        browser.waitUntil("the refusal says what is allowed", () -> browser.find("#search-error").isDisplayed()
                && browser.text("#search-error").contains("double quotes"));
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    private static NewItem entry(String title, MediaType type) {
        String guid = UUID.randomUUID().toString();
        return new NewItem(guid, title, "<p>Summary</p>", "https://example.test/" + guid, "author", type, List.of(), List.of(),
                Instant.now().minus(1, ChronoUnit.HOURS));
    }

    private static void awaitHits(Browser browser, String what, Long... ids) {
        List<String> expected = Arrays.stream(ids).map(String::valueOf).sorted().toList();
        browser.waitUntil(what, () -> browser.all("#search-results .search-hit").stream()
                .map(card -> card.getAttribute("data-id")).sorted().toList().equals(expected));
    }
}
