package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.crawler.refresh.FeedRefresher;
import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.storage.testing.Await;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The home timeline page in a real browser: items from feeds on a local server, the filters kept
 * in the URL, unread counts and marking read, the live stream, the composer, paging to the end of
 * the bounded window, the keyboard, hostile feed content and the phone layout.
 */
@BrowserTest
class HomeBrowserTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final AtomicInteger FEED_NUMBER = new AtomicInteger();
    private static final Duration SETUP_PATIENCE = Duration.ofSeconds(60);
    private static final String PASSWORD = "correct horse battery";
    private static final String PICTURE = """
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#1f5fbf"/></svg>
            """;

    @LocalServerPort int port;
    @Autowired CrawlStates crawlStates;
    @Autowired FeedRefresher refresher;

    /** A person signed up through the page, with a token for setting things up through the API. */
    private record Person(String username, String token) {
    }

    private Person signUp(Browser browser, ApiClient api) {
        String username = ApiClient.uniqueUsername("home");
        browser.signUp(username, PASSWORD);
        return new Person(username, api.createToken(username, PASSWORD, "setup", "read", "write"));
    }

    private static String subscribe(ApiClient api, Person person, String feedPath) {
        ApiResponse subscribed = api.post("/api/v1/subscriptions", person.token(), Map.of("url", FEEDS.url(feedPath).toString()));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        return subscribed.json().path("source").path("id").asString();
    }

    /**
     * Waits until the person's home timeline (through the API) holds {@code count} entries: set-up,
     * so with the crawl's and fan-out's patience on a busy machine rather than the page's.
     */
    private static void awaitTimeline(ApiClient api, Person person, int count) {
        Await.value(count + " entries in the home timeline", SETUP_PATIENCE,
                () -> api.get("/api/v1/timelines/home?limit=100", person.token()).json().size(), size -> size == count);
    }

    private static long unreadTotal(ApiClient api, Person person) {
        return api.get("/api/v1/unread", person.token()).json().path("total").asLong();
    }

    private static List<String> cardTitles(Browser browser) {
        return browser.all("#timeline .item .item-title").stream().map(WebElement::getText).toList();
    }

    /** No script errors or CSP reports; the browser's own line for each refused request is expected. */
    private static void assertCleanConsoleBut(Browser browser, String refusedPath, int status) {
        assertThat(browser.consoleErrors())
                .allMatch(message -> message.contains(refusedPath + " - Failed to load resource")
                        && message.contains("status of " + status));
    }

    /** Two text items tagged "news", two images (one tagged "news"), a link; newest first. */
    private static String mixedFeed(String name) {
        Instant newest = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        String picture = FEEDS.url("/pictures/" + name + ".svg").toString();
        FEEDS.respond("/pictures/" + name + ".svg", 200, Map.of("Content-Type", "image/svg+xml"), PICTURE);
        return rss(name, String.join("\n",
                entry(name + "-text-1", "Text one", "<p>A text entry with enough words to be read as text.</p>",
                        "news", null, newest),
                entry(name + "-photo-1", "Photo one", "A caption", "photos", picture, newest.minusSeconds(600)),
                entry(name + "-text-2", "Text two", "<p>Another text entry, long enough to be text too.</p>",
                        "News", null, newest.minusSeconds(1200)),
                entry(name + "-photo-2", "Photo two", "Another caption", "news", picture, newest.minusSeconds(1800)),
                entry(name + "-link-1", "Link one", null, null, null, newest.minusSeconds(2400))));
    }

    private static String entry(String guid, String title, String description, String category, String enclosure,
            Instant published) {
        return "<item><guid isPermaLink=\"false\">" + guid + "</guid><title>" + escape(title) + "</title>"
                + "<link>https://example.org/" + guid + "</link>"
                + (description == null ? "" : "<description>" + escape(description) + "</description>")
                + (category == null ? "" : "<category>" + category + "</category>")
                + (enclosure == null ? "" : "<enclosure url=\"" + enclosure + "\" type=\"image/svg+xml\" length=\"200\"/>")
                + "<pubDate>" + DateTimeFormatter.RFC_1123_DATE_TIME.format(published.atOffset(ZoneOffset.UTC)) + "</pubDate></item>";
    }

    private static String rss(String title, String items) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>%s</title><link>https://example.org/</link>
                <description>test</description>%s</channel></rss>
                """.formatted(escape(title), items);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String feed(String body) {
        String path = "/home-feeds/" + FEED_NUMBER.incrementAndGet() + ".xml";
        FEEDS.feed(path, body);
        return path;
    }

    @Test
    void aNewAccountIsPointedToSubscribeAndFitsAPhone(Browser browser) {
        browser.signUp(ApiClient.uniqueUsername("home"), PASSWORD);

        WebElement empty = browser.waitForText("#timeline-empty", "You aren’t following anything yet.");
        assertThat(empty.findElement(org.openqa.selenium.By.cssSelector("a")).getAttribute("href")).endsWith("/sources");
        assertThat(browser.text("#unread-total")).isEqualTo("0");
        assertThat(browser.find("#clear-filters").isDisplayed()).isFalse();

        browser.resize(375, 800);
        browser.waitUntil("the phone layout", () -> browser.find(".home-sidebar").getRect().getWidth() <= 375);
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void filtersByMediaTagSourceAndUnreadKeepThemInTheUrl(Browser browser) {
        ApiClient api = new ApiClient(port);
        Person person = signUp(browser, api);
        String mixedId = subscribe(api, person, feed(mixedFeed("Mixed")));
        String otherId = subscribe(api, person, feed(TestFeeds.numbered("Other", 2, Instant.now().minus(3, ChronoUnit.HOURS))));
        awaitTimeline(api, person, 7);
        browser.open("/");
        browser.waitUntil("seven cards", () -> cardTitles(browser).size() == 7);
        // Newest first by arrival: the feed subscribed last comes first.
        assertThat(cardTitles(browser)).containsExactly("Other entry 2", "Other entry 1",
                "Text one", "Photo one", "Text two", "Photo two", "Link one");

        // Media: images only, then also links; the URL says so and a reload keeps it.
        browser.click("input[name=media][value=image]");
        browser.waitUntil("only the photos", () -> cardTitles(browser).equals(List.of("Photo one", "Photo two")));
        assertThat(browser.url()).endsWith("/?media=image");
        assertThat(browser.all("#timeline .item .media-type")).allMatch(badge -> badge.getText().equals("Image"));
        assertThat(browser.all("#timeline .item-media img")).hasSize(2);
        browser.open("/?media=image");
        browser.waitUntil("only the photos after reload", () -> cardTitles(browser).equals(List.of("Photo one", "Photo two")));
        assertThat(browser.find("input[name=media][value=image]").isSelected()).isTrue();
        assertThat(browser.find("#clear-filters").isDisplayed()).isTrue();
        browser.resize(375, 800);
        browser.waitUntil("the phone layout", () -> browser.find(".home-sidebar").getRect().getWidth() <= 375);
        assertThat(browser.horizontalOverflow()).as("pictures fit a phone").isLessThanOrEqualTo(0);
        browser.resize(1280, 1000);

        // Tag, ignoring case as the API does, on top of the media filter; then clear everything.
        browser.type("#tag-filter", "NEWS");
        browser.press(Keys.ENTER);
        browser.waitUntil("the photo tagged news", () -> cardTitles(browser).equals(List.of("Photo two")));
        assertThat(browser.url()).endsWith("/?media=image&tag=NEWS");
        browser.click("#clear-filters");
        browser.waitUntil("everything again", () -> cardTitles(browser).size() == 7);
        assertThat(browser.url()).endsWith("/");
        assertThat(browser.find("#clear-filters").isDisplayed()).isFalse();

        // A tag link on a card filters by that tag.
        browser.click("#timeline .item .tag");
        browser.waitUntil("the news items", () -> cardTitles(browser).equals(List.of("Text one", "Text two", "Photo two")));
        assertThat(browser.url()).endsWith("/?tag=news");
        assertThat(browser.find("#tag-filter").getAttribute("value")).isEqualTo("news");

        // Back to everything, then a source from the sidebar, highlighted.
        browser.click("#clear-filters");
        browser.waitUntil("everything again", () -> cardTitles(browser).size() == 7);
        browser.click(".source-link[data-source='" + otherId + "']");
        browser.waitUntil("the other feed's items", () -> cardTitles(browser).equals(List.of("Other entry 2", "Other entry 1")));
        assertThat(browser.url()).endsWith("/?source_id=" + otherId);
        assertThat(browser.find(".source-link[data-source='" + otherId + "']").getAttribute("aria-current")).isEqualTo("true");
        assertThat(browser.find(".source-link[data-source='" + mixedId + "']").getAttribute("aria-current")).isNull();

        // The back button returns to the previous filters.
        browser.script("history.back()");
        browser.waitUntil("everything after going back", () -> cardTitles(browser).size() == 7);
        assertThat(browser.url()).endsWith("/");

        // Unread only: an item read elsewhere leaves the timeline; the filter survives a reload.
        String photoOne = api.get("/api/v1/timelines/home?limit=100", person.token()).json().valueStream()
                .filter(item -> item.path("title").asString().equals("Photo one")).findFirst().orElseThrow().path("id").asString();
        assertThat(api.post("/api/v1/items/" + photoOne + "/read", person.token(), null).status()).isEqualTo(204);
        browser.click("#unread-only");
        browser.waitUntil("six unread cards", () -> cardTitles(browser).size() == 6);
        assertThat(cardTitles(browser)).doesNotContain("Photo one");
        assertThat(browser.url()).endsWith("/?unread=true");
        browser.open("/?unread=true&media=bogus");
        browser.waitUntil("six unread cards after reload", () -> cardTitles(browser).size() == 6);
        assertThat(browser.find("#unread-only").isSelected()).isTrue();
        assertThat(browser.url()).as("a media type the API would refuse is dropped").endsWith("/?unread=true");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void marksReadByButtonKeyAndAllWithCountsThatAgreeWithTheApi(Browser browser) {
        ApiClient api = new ApiClient(port);
        Person person = signUp(browser, api);
        String mixedId = subscribe(api, person, feed(mixedFeed("Marks")));
        String otherId = subscribe(api, person, feed(TestFeeds.numbered("Second", 3, Instant.now().minus(3, ChronoUnit.HOURS))));
        awaitTimeline(api, person, 8);
        browser.open("/");
        browser.waitUntil("eight cards", () -> cardTitles(browser).size() == 8);
        browser.waitForText("#unread-total", "8");
        browser.waitForText(".source-count[data-source='" + mixedId + "']", "5");
        assertThat(browser.text(".source-count[data-source='" + otherId + "']")).isEqualTo("3");
        // Marking by hand: moving with j/k marks nothing (reading marks read is its own test).
        new Select(browser.find("#read-mode")).selectByValue("manual");

        // One by its button (the newest: the feed subscribed last).
        assertThat(cardTitles(browser).getFirst()).isEqualTo("Second entry 3");
        browser.click("#timeline .item:first-child .mark-read");
        browser.waitForText("#unread-total", "7");
        assertThat(browser.text(".source-count[data-source='" + otherId + "']")).isEqualTo("2");
        assertThat(browser.text(".source-count[data-source='" + mixedId + "']")).isEqualTo("5");
        assertThat(browser.find("#timeline .item:first-child").getAttribute("class")).contains("read");
        assertThat(unreadTotal(api, person)).isEqualTo(7);

        // One by keyboard: j j selects the second card, m marks it; m again marks it unread.
        browser.press("j");
        browser.press("j");
        browser.waitUntil("the second card selected",
                () -> browser.find("#timeline .item:nth-child(2)").getAttribute("class").contains("selected"));
        browser.press("m");
        browser.waitForText("#unread-total", "6");
        assertThat(unreadTotal(api, person)).isEqualTo(6);
        browser.press("m");
        browser.waitForText("#unread-total", "7");
        browser.press("m");
        browser.waitForText("#unread-total", "6");
        assertThat(browser.text(".source-count[data-source='" + otherId + "']")).isEqualTo("1");

        // With a media filter on, "all" means what is shown: the two images only.
        browser.click("input[name=media][value=image]");
        browser.waitUntil("the two photos", () -> cardTitles(browser).equals(List.of("Photo one", "Photo two")));
        browser.press("j");
        browser.waitUntil("shortcuts work right after using a filter checkbox",
                () -> browser.find("#timeline .item:first-child").getAttribute("class").contains("selected"));
        browser.waitForText("#mark-all-read", "Mark shown read");
        assertThat(browser.text("#mark-all-scope")).contains("loaded below");
        browser.click("#mark-all-read");
        browser.waitForText("#unread-total", "4");
        JsonNode unread = api.get("/api/v1/unread", person.token()).json();
        assertThat(unread.path("by_media").path("image").asLong(0)).isZero();
        assertThat(unread.path("total").asLong()).isEqualTo(4);
        assertThat(browser.all("#timeline .item:not(.read)")).isEmpty();

        // One source by its marker, then everything.
        browser.click("#clear-filters");
        browser.click(".source-link[data-source='" + otherId + "']");
        browser.waitUntil("the second feed", () -> cardTitles(browser).size() == 3);
        assertThat(browser.text("#mark-all-scope")).contains("Second");
        browser.click("#mark-all-read");
        browser.waitForText(".source-count[data-source='" + otherId + "']", "0");
        assertThat(api.get("/api/v1/unread", person.token()).json().path("by_source").path(otherId).asLong(0)).isZero();
        assertThat(unreadTotal(api, person)).isEqualTo(3);
        assertThat(browser.text(".source-count[data-source='" + mixedId + "']")).isEqualTo("3");
        browser.click("#all-sources");
        browser.waitUntil("eight cards", () -> cardTitles(browser).size() == 8);
        browser.click("#mark-all-read");
        browser.waitForText("#unread-total", "0");
        browser.waitUntil("every card read", () -> browser.all("#timeline .item:not(.read)").isEmpty());
        assertThat(unreadTotal(api, person)).isZero();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void liveItemsArriveWithoutReloadAndTheComposerPostsOnce(Browser browser) {
        ApiClient api = new ApiClient(port);
        Person person = signUp(browser, api);
        var friend = api.newUser("friend");
        assertThat(api.post("/api/v1/subscriptions", person.token(), Map.of("user", friend.username())).status()).isEqualTo(201);
        browser.open("/");
        browser.waitForText("#timeline-empty", "Nothing here yet");
        browser.script("window.sameDocument = true");

        // A friend's post arrives on the stream, highlighted, and the count follows.
        ApiResponse posted = api.post("/api/v1/posts", friend.token(), Map.of("text", "Hello from a friend", "tags", List.of("hi")));
        assertThat(posted.status()).isEqualTo(201);
        String postId = posted.json().path("id").asString();
        WebElement card = browser.waitFor("#timeline .item[data-id='" + postId + "']");
        assertThat(card.getText()).contains("Hello from a friend");
        assertThat(card.getAttribute("class")).contains("fresh");
        browser.waitForText("#unread-total", "1");
        assertThat(browser.script("return window.sameDocument")).as("no reload").isEqualTo(true);

        // The friend deletes it: it goes away.
        assertThat(api.delete("/api/v1/posts/" + postId, friend.token()).status()).isEqualTo(204);
        browser.waitUntil("the deleted post removed", () -> !browser.exists("#timeline .item[data-id='" + postId + "']"));
        browser.waitForText("#timeline-empty", "Nothing here yet");

        assertThat(browser.consoleErrors()).isEmpty();

        // The composer refuses bad input with the API's words.
        browser.click("#post-submit");
        browser.waitForText("#composer-error", "text");
        browser.type("#post-text", "Look at this");
        browser.type("#post-url", "javascript:alert(1)");
        browser.click("#post-submit");
        browser.waitForText("#composer-error", "must be an absolute http or https url");
        assertThat(browser.text("#composer-error")).doesNotContain("{");
        assertCleanConsoleBut(browser, "/api/v1/posts", 400);

        // A good post shows at the top once, also after the stream brings it back.
        browser.type("#post-url", "https://example.org/read-this");
        browser.type("#post-tags", "reading, <b>bold</b>");
        browser.click("#post-submit");
        browser.waitUntil("the composer cleared", () -> browser.find("#post-text").getAttribute("value").isEmpty());
        assertThat(browser.find("#composer-error").isDisplayed()).isFalse();
        browser.waitFor("#timeline .item[data-streamed]");
        List<WebElement> mine = browser.all("#timeline .item");
        assertThat(mine).hasSize(1);
        assertThat(mine.getFirst().getText()).contains("Look at this").contains("#<b>bold</b>");
        assertThat(api.get("/api/v1/users/" + person.username() + "/feed", person.token()).json().size()).isEqualTo(1);
        assertThat(browser.script("return window.sameDocument")).isEqualTo(true);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void loadsMoreUntilTheEndAndMovesWithTheKeyboard(Browser browser) throws InterruptedException {
        ApiClient api = new ApiClient(port);
        Person person = signUp(browser, api);
        // Subscribed while the feed is empty, then crawled with 45 entries: a new subscriber gets
        // only a source's latest few entries, so the entries must arrive after the subscription.
        String path = feed(TestFeeds.numbered("Long", 0, Instant.now()));
        String sourceId = subscribe(api, person, path);
        FEEDS.feed(path, TestFeeds.numbered("Long", 45, Instant.now().minus(1, ChronoUnit.HOURS)));
        CrawlState due = crawlStates.claim(Long.parseLong(sourceId), "home-test", Duration.ofMinutes(1)).orElseThrow();
        refresher.refresh(due);
        awaitTimeline(api, person, 45);
        browser.open("/");
        browser.waitUntil("the first page", () -> cardTitles(browser).size() == 20);
        assertThat(browser.find("#timeline-end").isDisplayed()).isFalse();
        browser.click("#load-more");
        browser.waitUntil("the second page", () -> cardTitles(browser).size() == 40);
        browser.click("#load-more");
        browser.waitUntil("all 45", () -> cardTitles(browser).size() == 45);
        browser.waitForText(".timeline-end", "end of your home timeline");
        assertThat(browser.text(".timeline-end")).contains("older items are on each source’s page");
        assertThat(browser.find("#load-more").isDisplayed()).isFalse();
        assertThat(cardTitles(browser).getLast()).isEqualTo("Long entry 1");
        assertThat(cardTitles(browser).stream().distinct().count()).isEqualTo(45);

        // j/k move the selection; typing in a field moves nothing; o opens the selected link.
        browser.press("j");
        browser.press("j");
        browser.press("j");
        browser.press("k");
        browser.waitUntil("the second card selected", () -> browser.all("#timeline .item.selected").size() == 1
                && browser.find("#timeline .item.selected .item-title").getText().equals("Long entry 44"));
        browser.script("document.querySelector('#tag-filter').focus()");
        browser.press("jjj");
        assertThat(browser.find("#timeline .item.selected .item-title").getText()).isEqualTo("Long entry 44");
        browser.script("document.activeElement.blur(); window.opened = [];"
                + "window.open = (url, target) => { window.opened.push(url + ' ' + target); return null; };");
        browser.press("o");
        assertThat(browser.script("return window.opened")).asString().contains("https://example.org/Long-44 _blank");

        // ? shows the help, Escape closes it.
        browser.press("?");
        browser.waitFor("#keys-help[open]");
        assertThat(browser.text("#keys-help")).contains("Next / previous item");
        browser.press(Keys.ESCAPE);
        browser.waitUntil("the help closed", () -> !browser.exists("#keys-help[open]"));

        browser.resize(375, 800);
        browser.waitUntil("the phone layout", () -> browser.find(".home-sidebar").getRect().getWidth() <= 375);
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void hostileFeedContentShowsAsTextAndNeverRuns(Browser browser) {
        ApiClient api = new ApiClient(port);
        Person person = signUp(browser, api);
        String picture = FEEDS.url("/pictures/hostile.svg").toString();
        FEEDS.respond("/pictures/hostile.svg", 200, Map.of("Content-Type", "image/svg+xml"), PICTURE);
        String title = "<img src=x onerror=window.pwned=1>";
        String summary = "<p>Hello</p><script>window.pwned=1</script><img src=\"" + picture + "\" onload=\"window.pwned=1\">"
                + "<a href=\"javascript:window.pwned=1\">click</a><p onmouseover=\"window.pwned=1\">hover</p>";
        subscribe(api, person, feed(rss("Hostile <b>feed</b>", entry("hostile-1", title, summary, "x", null,
                Instant.now().minus(1, ChronoUnit.HOURS)))));
        awaitTimeline(api, person, 1);
        browser.open("/");
        WebElement card = browser.waitFor("#timeline .item");
        browser.waitUntil("the summary's picture loaded", () -> Boolean.TRUE.equals(
                browser.script("const img = document.querySelector('.item-summary img'); return !img || img.complete")));
        browser.find("#timeline .item-summary p:last-child").click();

        assertThat(browser.all(".item-title img, .source-link b")).isEmpty();
        assertThat(card.getText()).contains("Hello").contains("hover");

        // A post whose text is markup shows that text, live.
        String hostilePost = "<img src=x onerror=window.pwned=1> <script>window.pwned=1</script>";
        assertThat(api.post("/api/v1/posts", person.token(), Map.of("text", hostilePost)).status()).isEqualTo(201);
        browser.waitForText("#timeline .item-summary", hostilePost);
        assertThat(browser.script("return typeof window.pwned")).isEqualTo("undefined");
        assertThat(browser.all(".item-summary script, .item-summary [onload], .item-summary [onmouseover], .item-summary [onerror]"))
                .isEmpty();
        assertThat(browser.all(".item-summary a")).allMatch(a -> !String.valueOf(a.getAttribute("href")).startsWith("javascript"));
        assertThat(browser.consoleErrors()).isEmpty();
    }
    @Test
    void readingMarksReadAtOnceAndEveryMarkCanBeUndone(Browser browser) {
        ApiClient api = new ApiClient(port);
        Person person = signUp(browser, api);
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String sourceId = subscribe(api, person, feed(rss("Ages", String.join("\n",
                entry("ages-fresh", "Fresh news", "<p>Today.</p>", null, null, now.minus(1, ChronoUnit.HOURS)),
                entry("ages-recent", "Recent news", "<p>Two days ago.</p>", null, null, now.minus(2, ChronoUnit.DAYS)),
                entry("ages-old", "Old news", "<p>Ten days ago.</p>", null, null, now.minus(10, ChronoUnit.DAYS))))));
        awaitTimeline(api, person, 3);
        browser.open("/");
        browser.waitUntil("three cards", () -> cardTitles(browser).size() == 3);
        browser.waitForText("#unread-total", "3");
        assertThat(browser.find("#read-mode").getAttribute("value")).as("on open by default, as Miniflux").isEqualTo("open");
        // The link opens the original in a new tab; the test keeps the page where it is.
        browser.script("document.addEventListener('click', event => { if (event.target.closest('.item-title a')) event.preventDefault(); })");

        // Clicking a title marks that item read, and the counts drop at once.
        String first = cardTitles(browser).getFirst();
        browser.click("#timeline .item:first-child .item-title a");
        browser.waitForText("#unread-total", "2");
        assertThat(browser.find("#timeline .item:first-child").getAttribute("class")).contains("read");
        assertThat(browser.text(".source-count[data-source='" + sourceId + "']")).isEqualTo("2");
        assertThat(unreadTotal(api, person)).isEqualTo(2);

        // Undo marks it unread again, through the API.
        browser.waitForText(".toast", "Marked read: " + first);
        browser.click(".toast .toast-undo");
        browser.waitForText("#unread-total", "3");
        assertThat(browser.find("#timeline .item:first-child").getAttribute("class")).doesNotContain("read");
        assertThat(unreadTotal(api, person)).isEqualTo(3);

        // j moves onto an item, which opens it: read.
        browser.press("j");
        browser.waitForText("#unread-total", "2");
        browser.press("j");
        browser.waitForText("#unread-total", "1");
        assertThat(browser.all("#timeline .item.read")).hasSize(2);
        assertThat(unreadTotal(api, person)).isEqualTo(1);

        // By hand: moving marks nothing; the choice is kept across a reload.
        new Select(browser.find("#read-mode")).selectByValue("manual");
        browser.script("document.activeElement.blur()");
        browser.press("j");
        browser.waitUntil("the third card selected",
                () -> browser.find("#timeline .item:nth-child(3)").getAttribute("class").contains("selected"));
        assertThat(unreadTotal(api, person)).isEqualTo(1);
        browser.open("/");
        browser.waitUntil("three cards again", () -> cardTitles(browser).size() == 3);
        assertThat(browser.find("#read-mode").getAttribute("value")).isEqualTo("manual");
        browser.waitForText("#unread-total", "1");

        // Mark all older than a week: only the ten-day-old item; undo brings it back.
        assertThat(api.delete("/api/v1/items/" + itemId(api, person, "Fresh news") + "/read", person.token()).status()).isEqualTo(204);
        assertThat(api.delete("/api/v1/items/" + itemId(api, person, "Recent news") + "/read", person.token()).status()).isEqualTo(204);
        browser.open("/");
        browser.waitForText("#unread-total", "3");
        new Select(browser.find("#mark-all-age")).selectByValue("week");
        browser.click("#mark-all-read");
        browser.waitForText("#unread-total", "2");
        assertThat(readFlag(api, person, "Old news")).isTrue();
        assertThat(readFlag(api, person, "Recent news")).isFalse();
        assertThat(readFlag(api, person, "Fresh news")).isFalse();
        browser.waitForText(".toast", "Marked 1 item read.");
        browser.click(".toast .toast-undo");
        browser.waitForText("#unread-total", "3");
        assertThat(readFlag(api, person, "Old news")).isFalse();

        // Older than a day: the two older ones.
        new Select(browser.find("#mark-all-age")).selectByValue("day");
        browser.click("#mark-all-read");
        browser.waitForText("#unread-total", "1");
        assertThat(readFlag(api, person, "Fresh news")).isFalse();
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void scrollingPastAnItemMarksItReadInScrollMode(Browser browser) {
        ApiClient api = new ApiClient(port);
        Person person = signUp(browser, api);
        subscribe(api, person, feed(TestFeeds.numbered("Scroll", 8, Instant.now().minus(1, ChronoUnit.HOURS))));
        awaitTimeline(api, person, 8);
        browser.script("localStorage.setItem('tributary.read-mode', 'scroll')");
        browser.open("/");
        browser.waitUntil("eight cards", () -> cardTitles(browser).size() == 8);
        browser.waitForText("#unread-total", "8");
        assertThat(browser.find("#read-mode").getAttribute("value")).isEqualTo("scroll");
        // Scrolled so that the first card is wholly above the screen: it was read on the way past.
        browser.script("const card = document.querySelector('#timeline .item');"
                + "window.scrollTo(0, card.getBoundingClientRect().bottom + window.scrollY + 5)");
        browser.waitUntil("the first card read", () -> browser.find("#timeline .item:first-child").getAttribute("class").contains("read"));
        browser.waitUntil("the count down", () -> Long.parseLong(browser.text("#unread-total")) < 8);
        assertThat(browser.find("#timeline .item:last-child").getAttribute("class")).doesNotContain("read");
        assertThat(unreadTotal(api, person)).isLessThan(8);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    private static String itemId(ApiClient api, Person person, String title) {
        return api.get("/api/v1/timelines/home?limit=100", person.token()).json().valueStream()
                .filter(item -> item.path("title").asString().equals(title)).findFirst().orElseThrow().path("id").asString();
    }

    private static boolean readFlag(ApiClient api, Person person, String title) {
        return api.get("/api/v1/timelines/home?limit=100", person.token()).json().valueStream()
                .filter(item -> item.path("title").asString().equals(title)).findFirst().orElseThrow().path("read").asBoolean();
    }
}
