package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.storage.testing.Await;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The home page as a daily reader sees it, at a laptop's 1366×900 and a phone's 390×844: the
 * timeline first on a phone with the sidebar in a drawer, opening an item marks it read with the
 * count dropping, dark mode, and a sidebar of 2,000 feeds that keeps only the rows in view.
 */
@BrowserTest
class ReaderBrowserTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final AtomicInteger FEED_NUMBER = new AtomicInteger();
    private static final Duration SETUP_PATIENCE = Duration.ofSeconds(60);
    private static final String PASSWORD = "correct horse battery";
    /** Width and height of the two screens every check runs at. */
    static final List<int[]> SCREENS = List.of(new int[] {1366, 900}, new int[] {390, 844});

    @org.springframework.boot.test.web.server.LocalServerPort int port;

    private record Person(String username, String token) {
    }

    private Person signUp(Browser browser, ApiClient api) {
        String username = ApiClient.uniqueUsername("reader");
        browser.signUp(username, PASSWORD);
        return new Person(username, api.createToken(username, PASSWORD, "setup", "read", "write"));
    }

    private static String subscribe(ApiClient api, Person person, String feedBody) {
        String path = "/reader-feeds/" + FEED_NUMBER.incrementAndGet() + ".xml";
        FEEDS.feed(path, feedBody);
        ApiResponse subscribed = api.post("/api/v1/subscriptions", person.token(), Map.of("url", FEEDS.url(path).toString()));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        return subscribed.json().path("source").path("id").asString();
    }

    private static void awaitTimeline(ApiClient api, Person person, int count) {
        Await.value(count + " entries in the home timeline", SETUP_PATIENCE,
                () -> api.get("/api/v1/timelines/home?limit=100", person.token()).json().size(), size -> size == count);
    }

    private static long unreadTotal(ApiClient api, Person person) {
        return api.get("/api/v1/unread", person.token()).json().path("total").asLong();
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }

    @Test
    void onAPhoneTheTimelineComesFirstAndTheSidebarIsADrawer(Browser browser) {
        ApiClient api = new ApiClient(port);
        Person person = signUp(browser, api);
        String sourceId = subscribe(api, person, TestFeeds.numbered("Pocket", 6, Instant.now().minus(1, ChronoUnit.HOURS)));
        awaitTimeline(api, person, 6);
        browser.resizeViewport(390, 844);
        browser.open("/");
        browser.waitUntil("six cards", () -> browser.all("#timeline .item").size() == 6);
        assertThat(number(browser.script("return window.innerWidth"))).isEqualTo(390);
        assertThat(number(browser.script("return window.innerHeight"))).isEqualTo(844);

        // The first item starts within the first screen, under a one-row header.
        long screen = number(browser.script("return window.innerHeight"));
        long firstTop = number(browser.script("return document.querySelector('#timeline .item').getBoundingClientRect().top"));
        assertThat(firstTop).as("the first item's top, on a %d px screen", screen).isLessThan(screen / 2);
        long header = number(browser.script("return document.querySelector('.site-header').getBoundingClientRect().height"));
        assertThat(header).as("one row of 44 px targets").isBetween(44L, 60L);
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);

        // Every control in view is a touch target of at least 44 px high.
        assertThat(browser.script("""
                return [...document.querySelectorAll('button, select, input, .site-nav a, .item-actions a, .item-meta a')]
                    .filter(e => e.checkVisibility() && e.getBoundingClientRect().height > 0)
                    .filter(e => !e.closest('#home-sidebar') && e.type !== 'checkbox' && e.type !== 'hidden')
                    .filter(e => e.getBoundingClientRect().height < 44)
                    .map(e => e.outerHTML.slice(0, 80))""")).asList().isEmpty();

        // The sidebar is out of the way until its button opens it; picking a feed closes it and names the view.
        assertThat(browser.find("#home-sidebar").isDisplayed()).isFalse();
        browser.click("#sidebar-toggle");
        browser.waitFor(".source-link[data-source='" + sourceId + "']");
        assertThat(browser.find("#sidebar-toggle").getAttribute("aria-expanded")).isEqualTo("true");
        browser.click(".source-link[data-source='" + sourceId + "']");
        browser.waitUntil("the drawer closed", () -> !browser.find("#home-sidebar").isDisplayed());
        browser.waitForText("#home-heading", "Pocket");
        assertThat(browser.url()).endsWith("/?source_id=" + sourceId);

        // The composer and the filters fold away behind their buttons.
        assertThat(browser.find("#composer").isDisplayed()).isFalse();
        browser.click("#composer-toggle");
        browser.waitFor("#post-text");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void openingAnItemMarksItReadAndTheCountDropsAtBothSizes(Browser browser) {
        ApiClient api = new ApiClient(port);
        Person person = signUp(browser, api);
        subscribe(api, person, TestFeeds.numbered("Opened", 4, Instant.now().minus(1, ChronoUnit.HOURS)));
        awaitTimeline(api, person, 4);
        // The titles open the original in a new tab; the test keeps the page where it is.
        browser.beforeEachPage("document.addEventListener('click', event => {"
                + " if (event.target.closest?.('.item-title a')) event.preventDefault(); })");
        long unread = 4;
        for (int[] size : SCREENS) {
            browser.resizeViewport(size[0], size[1]);
            browser.open("/");
            browser.waitUntil("four cards", () -> browser.all("#timeline .item").size() == 4);
            // The sidebar's total on a laptop; on a phone the sidebar is a drawer and its button carries the total.
            String count = size[0] > 760 ? "#unread-total" : "#drawer-unread";
            browser.waitForText(count, String.valueOf(unread));
            browser.click("#timeline .item:not(.read) .item-title a");
            unread--;
            browser.waitForText(count, String.valueOf(unread));
            assertThat(unreadTotal(api, person)).as("at %dx%d", size[0], size[1]).isEqualTo(unread);
            assertThat(browser.all("#timeline .item.read")).hasSize((int) (4 - unread));
        }
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void darkModeFollowsTheSystemAndTheToggleIsKept(Browser browser) {
        ApiClient api = new ApiClient(port);
        signUp(browser, api);
        String background = "return getComputedStyle(document.body).backgroundColor";
        browser.emulateColorScheme("dark");
        browser.open("/");
        browser.waitFor("#theme-toggle");
        assertThat(browser.script(background)).isEqualTo("rgb(18, 22, 28)");
        assertThat(browser.script("return getComputedStyle(document.documentElement).colorScheme")).isEqualTo("dark");
        assertThat(browser.find("#theme-toggle").getAttribute("aria-pressed")).isEqualTo("true");

        // Chosen light on a dark system: kept across pages and reloads.
        browser.click("#theme-toggle");
        browser.waitUntil("light", () -> "rgb(246, 247, 249)".equals(browser.script(background)));
        browser.open("/settings");
        browser.waitFor("#theme-toggle");
        assertThat(browser.script(background)).isEqualTo("rgb(246, 247, 249)");
        assertThat(browser.find("#theme-toggle").getAttribute("aria-pressed")).isEqualTo("false");

        // Chosen dark on a light system.
        browser.emulateColorScheme("light");
        browser.click("#theme-toggle");
        browser.waitUntil("dark", () -> "rgb(18, 22, 28)".equals(browser.script(background)));
        browser.open("/");
        browser.waitFor("#theme-toggle");
        assertThat(browser.script(background)).isEqualTo("rgb(18, 22, 28)");
        assertThat(browser.consoleErrors()).isEmpty();
    }

    /**
     * 2,000 subscriptions in 20 folders, as the API would list them: the page's own calls to the
     * folders, subscriptions and unread endpoints are answered in the page (subscribing 2,000
     * feeds for real would crawl them all), the rest goes to the server.
     */
    private static final String TWO_THOUSAND_FEEDS = """
            (() => {
              const folders = Array.from({length: 20}, (_, f) => ({id: String(9000 + f), name: 'Folder ' + f}));
              const subscriptions = Array.from({length: 2000}, (_, i) => ({
                id: String(100000 + i), title: null, folders: i % 2 ? [folders[(i >> 1) % 20]] : [],
                source: {id: String(200000 + i), title: 'feed ' + i, url: 'https://example.org/' + i, status: 'ok'}}));
              const bySource = {}; const byFolder = {};
              subscriptions.forEach((s, i) => { if (i % 3 === 0) { bySource[s.source.id] = 1;
                s.folders.forEach(f => byFolder[f.id] = (byFolder[f.id] ?? 0) + 1); } });
              const unread = {total: Object.keys(bySource).length, by_source: bySource, by_media: {}, by_folder: byFolder, trimmed_unread: 0};
              const answers = {'/api/v1/folders': folders, '/api/v1/subscriptions': subscriptions, '/api/v1/unread': unread};
              // The live stream would bring the server's real counts (none): without it the page says it is off.
              delete window.EventSource;
              const real = window.fetch.bind(window);
              window.fetch = (input, init) => {
                const url = new URL(typeof input === 'string' ? input : input.url, location.href);
                const answer = answers[url.pathname];
                if (answer && (init?.method ?? 'GET') === 'GET') {
                  return Promise.resolve(new Response(JSON.stringify(answer), {headers: {'Content-Type': 'application/json'}}));
                }
                return real(input, init);
              };
            })();
            """;

    @Test
    void withTwoThousandFeedsTheSidebarKeepsOnlyTheRowsInView(Browser browser) {
        ApiClient api = new ApiClient(port);
        signUp(browser, api);
        browser.beforeEachPage(TWO_THOUSAND_FEEDS);
        browser.resizeViewport(1366, 900);
        browser.open("/");
        browser.waitForText(".folder-link", "Folder 0");

        // Folders first, in natural order, each holding its feeds in natural order (feed 2 before feed 10).
        List<String> names = browser.all("#feed-tree .source-link").stream().map(link -> link.getText()).toList();
        assertThat(names.getFirst()).isEqualTo("Folder 0");
        assertThat(names.subList(1, 4)).containsExactly("feed 1", "feed 41", "feed 81");
        long rows = browser.all("#feed-tree > li").size();
        assertThat(rows).as("rows in the page for 2,000 feeds and 20 folders").isBetween(10L, 80L);
        long height = number(browser.script("return document.querySelector('#feed-tree').getBoundingClientRect().height"));
        assertThat(height).as("the list is as tall as all its rows").isEqualTo(2020L * 32);

        // Scrolled far down: other rows, still only a screenful of them.
        browser.script("const aside = document.querySelector('#home-sidebar'); aside.scrollTop = aside.scrollHeight / 2");
        browser.waitUntil("rows from the middle drawn", () -> browser.all(".folder-link").stream().noneMatch(l -> l.getText().equals("Folder 0")));
        assertThat(browser.all("#feed-tree > li").size()).isBetween(10, 80);

        // Folded folders and "only feeds with unread" shorten the list; the heading names the view.
        browser.script("document.querySelector('#home-sidebar').scrollTop = 0");
        browser.waitForText(".folder-link", "Folder 0");
        browser.click(".folder[data-folder='9000'] .folder-toggle");
        browser.waitUntil("folder 0 folded",
                () -> "false".equals(browser.find(".folder[data-folder='9000'] .folder-toggle").getAttribute("aria-expanded")));
        assertThat(browser.find("#feed-tree .tree-row:nth-child(2) .source-link").getText()).isEqualTo("Folder 1");
        browser.click("#sidebar-unread-only");
        // A third of the feeds have unread items, and the folders holding them.
        browser.waitUntil("a shorter list", () -> number(browser.script(
                "return document.querySelector('#feed-tree').getBoundingClientRect().height")) < height / 2);
        assertThat(number(browser.script("return document.querySelector('#feed-tree').getBoundingClientRect().height")))
                .as("20 folders and the 667 feeds with unread, less the 16 in folded Folder 0").isEqualTo((20L + 667 - 16) * 32);
        assertThat(browser.all("#feed-tree .source-count")).allMatch(count -> !count.getText().equals("0"));
        browser.click(".folder-link[data-folder='9001']");
        browser.waitForText("#home-heading", "Folder 1");
        // The server knows no such folder: its timeline is refused, and the page says so.
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }
}
