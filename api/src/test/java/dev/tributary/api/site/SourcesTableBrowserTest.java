package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The sources page's table with a thousand feeds and more: one dense row each, only the rows in
 * view in the page, natural sort, sorting by unread, status and last fetch, the filter, and
 * "refresh now" against the real crawler's politeness.
 */
@BrowserTest
class SourcesTableBrowserTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final String PASSWORD = "correct horse battery";
    private static final int FEEDS_COUNT = 2000;
    /** A permutation of 0..1999 (7919 is prime to 2000): feed i was last fetched this many minutes after the first. */
    private static final int SPREAD = 7919;
    /** A row's height on a phone, in CSS pixels (sources.js and sources.css say the same). */
    private static final long PHONE_ROW = 60;
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;

    /** The end of a fixture: the page's calls named in its {@code answers} ("METHOD /path" → JSON) are answered by it. */
    private static final String ANSWERED_IN_PAGE = """
              const real = window.fetch.bind(window);
              window.fetch = (input, init) => {
                const url = new URL(typeof input === 'string' ? input : input.url, location.href);
                const answer = answers[`${init?.method ?? 'GET'} ${url.pathname}`];
                if (answer) {
                  return Promise.resolve(new Response(JSON.stringify(answer), {headers: {'Content-Type': 'application/json'}}));
                }
                return real(input, init);
              };
            })();
            """;

    /**
     * 2,000 subscriptions as the API would list them, answered in the page (subscribing 2,000 feeds
     * for real would crawl them all): every 50th from 7 in error, every 97th from 3 gone, every
     * odd one in one of 20 folders, every third with i mod 17 unread.
     */
    private static final String TWO_THOUSAND_FEEDS = """
            (() => {
              const topics = ['Art', 'Books', 'Cars', 'Design', 'Energy', 'Food', 'Games', 'Health', 'Ideas', 'Jazz', 'Kids',
                'Law', 'Maps', 'News', 'Opera', 'Poetry', 'Quilts', 'Radio', 'Science', 'Travel'];
              const folders = topics.map((name, f) => ({id: String(9000 + f), name}));
              const start = Date.UTC(2026, 9, 1);
              const subscriptions = Array.from({length: %d}, (_, i) => {
                const status = i %% 97 === 3 ? 'gone' : i %% 50 === 7 ? 'error' : 'ok';
                return {id: String(100000 + i), title: null, media: null, full_content: false,
                  folders: i %% 2 ? [folders[(i >> 1) %% 20]] : [],
                  source: {id: String(200000 + i), kind: 'feed', title: 'feed ' + i, url: 'https://example.org/' + i,
                    status, last_error: status === 'error' ? 'HTTP 500' : null,
                    last_fetched_at: new Date(start + ((i * %d) %% %d) * 60000).toISOString(),
                    next_fetch_at: status === 'gone' ? null : new Date(start + 86400000 * 90).toISOString()}};
              });
              const bySource = {};
              subscriptions.forEach((s, i) => { if (i %% 3 === 0 && i %% 17 > 0) { bySource[s.source.id] = i %% 17; } });
              const unread = {total: 0, by_source: bySource, by_media: {}, by_folder: {}, trimmed_unread: 0};
              const answers = {'GET /api/v1/folders': folders, 'GET /api/v1/subscriptions': subscriptions,
                'GET /api/v1/unread': unread, 'GET /api/v1/me/feeds': []};
            """.formatted(FEEDS_COUNT, SPREAD, FEEDS_COUNT) + ANSWERED_IN_PAGE;

    /**
     * A handful of subscriptions with names of ordinary length (a feed, one in error, a person, one
     * gone), answered in the page, and "refresh now" of the first accepted.
     */
    private static final String A_FEW_FEEDS = """
            (() => {
              const feed = (i, title, status, kind = 'feed') => ({id: String(i), title: null, media: null, full_content: false,
                folders: [], source: {id: String(100 + i), kind, title, url: kind === 'feed' ? 'https://example.org/' + i : null,
                  status, last_error: status === 'error' ? 'HTTP 500' : null,
                  last_fetched_at: kind === 'feed' ? new Date(Date.now() - 3 * 3600000).toISOString() : null,
                  next_fetch_at: null}});
              const subscriptions = [feed(1, 'Accessibility Weekly', 'ok'), feed(2, 'The Morning Paper', 'error'),
                feed(3, 'anlopez', 'ok', 'user'), feed(4, 'Old Blog', 'gone')];
              const unread = {total: 15, by_source: {'101': 12, '102': 3}, by_media: {}, by_folder: {}, trimmed_unread: 0};
              const answers = {'GET /api/v1/folders': [], 'GET /api/v1/subscriptions': subscriptions,
                'GET /api/v1/unread': unread, 'GET /api/v1/me/feeds': [], 'POST /api/v1/subscriptions/1/refresh': {}};
            """ + ANSWERED_IN_PAGE;


    @Test
    void twoThousandSubscriptionsKeepOnlyTheRowsInViewAndSortAndFilter(Browser browser) {
        browser.signUp(ApiClient.uniqueUsername("table"), PASSWORD);
        browser.beforeEachPage(TWO_THOUSAND_FEEDS);
        browser.resizeViewport(1366, 900);
        browser.open("/sources");
        browser.waitForText(".subscription-row .source-link", "feed 0");
        assertThat(browser.text("#subscription-count")).isEqualTo("(2000)");

        // One row per subscription, 40 px each, and only about a screenful of them in the page.
        assertThat(rows(browser)).as("rows in the page for 2,000 subscriptions").isBetween(10, 80);
        assertThat(bodyHeight(browser)).as("the body as tall as all its rows").isEqualTo(FEEDS_COUNT * 40L);
        // Natural order: feed 2 before feed 10.
        assertThat(names(browser).subList(0, 4)).containsExactly("feed 0", "feed 1", "feed 2", "feed 3");

        // Scrolled half-way down the page: other rows, still only a screenful.
        browser.script("window.scrollTo(0, document.querySelector('#subscriptions').getBoundingClientRect().top"
                + " + window.scrollY + 1000 * 40)");
        browser.waitUntil("rows from the middle drawn", () -> !names(browser).contains("feed 0"));
        assertThat(rows(browser)).isBetween(10, 80);
        assertThat(names(browser)).contains("feed 1000");
        browser.script("window.scrollTo(0, 0)");

        // By unread, most first (ties by name): feed 33 has the most (16).
        browser.click("[data-sort=unread] .sort");
        browser.waitUntil("sorted by unread", () -> names(browser).getFirst().equals("feed 33"));
        assertThat(browser.text(".subscription-row .col-unread")).isEqualTo("16");
        assertThat(browser.find("[data-sort=unread]").getAttribute("aria-sort")).isEqualTo("descending");
        assertThat(browser.find("[data-sort=name]").getAttribute("aria-sort")).isEqualTo("none");
        browser.click("[data-sort=unread] .sort");
        browser.waitUntil("fewest unread first", () -> browser.text(".subscription-row .col-unread").equals("0"));
        assertThat(browser.find("[data-sort=unread]").getAttribute("aria-sort")).isEqualTo("ascending");

        // By status: gone first (3, 100, 197…), then those in error.
        browser.click("[data-sort=error] .sort");
        browser.waitUntil("troubled first", () -> names(browser).getFirst().equals("feed 3"));
        assertThat(names(browser).subList(0, 3)).containsExactly("feed 3", "feed 100", "feed 197");
        long gone = IntStream.range(0, FEEDS_COUNT).filter(i -> i % 97 == 3).count();
        assertThat(names(browser).get((int) gone)).as("the first in error, after the %d gone", gone).isEqualTo("feed 7");

        // By last fetch, the longest ago first: feed 0 (minute 0), then the feed fetched a minute later.
        int second = IntStream.range(0, FEEDS_COUNT).filter(i -> (long) i * SPREAD % FEEDS_COUNT == 1).findFirst().orElseThrow();
        browser.click("[data-sort=fetched] .sort");
        browser.waitUntil("sorted by last fetch", () -> names(browser).subList(0, 2).equals(List.of("feed 0", "feed " + second)));

        // The filter: by address (…/19, /190–199, /1900–1999), by folder, or nothing.
        browser.click("[data-sort=name] .sort");
        browser.type("#subscription-filter", "example.org/19");
        browser.waitUntil("filtered by name", () -> browser.text("#subscription-shown").equals("111 of 2000"));
        assertThat(bodyHeight(browser)).isEqualTo(111 * 40L);
        assertThat(names(browser).subList(0, 3)).containsExactly("feed 19", "feed 190", "feed 191");
        browser.type("#subscription-filter", "DESIGN");
        browser.waitUntil("filtered by folder", () -> browser.text("#subscription-shown").equals("50 of 2000"));
        assertThat(names(browser)).allMatch(name -> Integer.parseInt(name.substring(5)) % 40 == 7);
        browser.type("#subscription-filter", "no such thing");
        browser.waitFor("#subscriptions-none");
        assertThat(browser.find("#subscription-table").isDisplayed()).isFalse();
        browser.find("#subscription-filter").clear();
        browser.type("#subscription-filter", " ");
        browser.waitUntil("every row back", () -> bodyHeight(browser) == FEEDS_COUNT * 40L);

        // A phone: taller rows (two lines, for touch), still only a screenful, nothing wider than the screen.
        browser.resizeViewport(390, 844);
        browser.waitUntil("phone rows", () -> bodyHeight(browser) == FEEDS_COUNT * PHONE_ROW);
        browser.open("/sources");
        browser.waitForText(".subscription-row .source-link", "feed 0");
        assertThat(bodyHeight(browser)).isEqualTo(FEEDS_COUNT * PHONE_ROW);
        assertThat(rows(browser)).isBetween(5, 80);
        // The person's sources come first: the first row whole on the first screen, the forms behind a button.
        Map<?, ?> first = (Map<?, ?>) browser.script("""
                const row = document.querySelector('#subscriptions > .table-row[aria-rowindex="2"]');
                const box = row.getBoundingClientRect();
                return {name: row.querySelector('.source-link').textContent, bottom: box.y + box.height,
                    screen: window.innerHeight, scrolled: window.scrollY}""");
        assertThat(first.get("name")).isEqualTo("feed 0");
        assertThat(((Number) first.get("scrolled")).longValue()).isZero();
        assertThat(((Number) first.get("screen")).longValue()).isEqualTo(844);
        assertThat(((Number) first.get("bottom")).doubleValue()).as("the first row's bottom on an 844 px screen")
                .isLessThanOrEqualTo(844);
        assertThat(browser.find("#subscribe-form").isDisplayed()).isFalse();
        browser.click("#source-forms-toggle");
        browser.waitUntil("the forms unfolded", () -> browser.find("#subscribe-url").isDisplayed());
        assertThat(browser.find("#source-forms-toggle").getAttribute("aria-expanded")).isEqualTo("true");
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void refreshNowWaitsForPolitenessThenQueuesTheFeed(Browser browser) {
        ApiClient api = new ApiClient(port);
        String username = ApiClient.uniqueUsername("refreshweb");
        browser.signUp(username, PASSWORD);
        String token = api.createToken(username, PASSWORD, "setup", "read", "write");
        FEEDS.feed("/table/now.xml", TestFeeds.numbered("Refreshable", 2, Instant.now().minusSeconds(600)));
        ApiResponse subscribed = api.post("/api/v1/subscriptions", token, Map.of("url", FEEDS.url("/table/now.xml").toString()));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);

        browser.open("/sources");
        browser.waitForText(".subscription-row .source-link", "Refreshable");
        // Subscribing fetched it a moment ago: the page says when it will be fetched instead.
        browser.click(".subscription-row .refresh-now");
        browser.waitForText(".toast", "Refreshable was fetched a moment ago. It will be fetched again by");
        assertThat(FEEDS.requests("/table/now.xml")).hasSize(1);

        jdbc.sql("UPDATE crawl_state SET last_fetched_at = UTC_TIMESTAMP(6) - INTERVAL 1 HOUR WHERE source_id = ?")
                .param(Long.parseLong(subscribed.json().path("source").path("id").asString())).update();
        browser.click(".subscription-row .refresh-now");
        browser.waitForText(".toast", "Fetching Refreshable now.");
        browser.waitUntil("the crawler fetching it", () -> FEEDS.requests("/table/now.xml").size() == 2);
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void onAPhoneARowShowsTheWholeNameAlignedUnderItsHeaderWithTouchSizedButtons(Browser browser) {
        browser.signUp(ApiClient.uniqueUsername("phonerow"), PASSWORD);
        browser.beforeEachPage(A_FEW_FEEDS);

        // A wide screen: one 40 px line a row, "Refresh" in the row, not in the panel.
        browser.resizeViewport(1366, 900);
        browser.open("/sources");
        browser.waitForText(".subscription-row .source-link", "Accessibility Weekly");
        assertThat(browser.script("return document.querySelector('.subscription-row').getBoundingClientRect().height"))
                .isEqualTo(40L);
        assertThat(browser.find(".subscription-row .refresh-now").isDisplayed()).isTrue();
        assertThat(layout(browser).get("misaligned")).as("header cells not over their row cells").isEqualTo(List.of());
        browser.saveScreenshot(SCREENSHOTS.resolve("sources-table-1366x900.png"));

        browser.resizeViewport(390, 844);
        browser.open("/sources");
        browser.waitForText(".subscription-row .source-link", "Accessibility Weekly");
        Map<?, ?> phone = layout(browser);
        assertThat(phone.get("name")).isEqualTo("Accessibility Weekly");
        assertThat(((Number) phone.get("nameScroll")).longValue()).as("the name's width needed, not truncated")
                .isLessThanOrEqualTo(((Number) phone.get("nameClient")).longValue());
        assertThat(phone.get("headerShown")).isEqualTo(true);
        assertThat(phone.get("misaligned")).as("header cells not over their row cells").isEqualTo(List.of());
        assertThat((List<?>) phone.get("buttons")).as("the row's buttons").isNotEmpty()
                .allSatisfy(height -> assertThat(((Number) height).doubleValue()).isGreaterThanOrEqualTo(44));
        assertThat((List<?>) phone.get("sortButtons")).as("the header's buttons").hasSize(4)
                .allSatisfy(height -> assertThat(((Number) height).doubleValue()).isGreaterThanOrEqualTo(44));
        assertThat(((Number) phone.get("rowHeight")).longValue()).isEqualTo(PHONE_ROW);
        assertThat(((Number) phone.get("scrollWidth")).longValue()).as("the page's width").isLessThanOrEqualTo(390);
        browser.saveScreenshot(SCREENSHOTS.resolve("sources-table-390x844.png"));

        // "Refresh" is in the Manage panel on a phone.
        assertThat(browser.find(".subscription-row .refresh-now").isDisplayed()).isFalse();
        browser.click(".subscription-row .manage");
        browser.waitFor("#subscription-panel .panel-refresh");
        assertThat(browser.find("#subscription-panel .panel-refresh").isDisplayed()).isTrue();
        browser.click("#subscription-panel .panel-refresh");
        browser.waitForText(".toast", "Fetching Accessibility Weekly now.");
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        browser.saveScreenshot(SCREENSHOTS.resolve("sources-table-manage-390x844.png"));
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    /**
     * The first row as laid out: its name's needed and given widths, its visible buttons' heights,
     * the header's, and the columns whose header cell's left or right edge is more than 1 px off its
     * row cell's.
     */
    private static Map<?, ?> layout(Browser browser) {
        return (Map<?, ?>) browser.script("""
                const row = document.querySelector('#subscriptions > .table-row[aria-rowindex="2"]');
                const head = document.querySelector('.head-row');
                const name = row.querySelector('.col-name');
                const shown = element => element.getClientRects().length > 0;
                const misaligned = ['name', 'unread', 'status', 'fetched', 'actions'].filter(column => {
                  const cell = row.querySelector('.col-' + column);
                  const header = head.querySelector('.col-' + column);
                  if (!shown(cell) || !shown(header)) {
                    return shown(cell) !== shown(header) && column !== 'actions';
                  }
                  const a = cell.getBoundingClientRect();
                  const b = header.getBoundingClientRect();
                  return Math.abs(a.left - b.left) > 1 || Math.abs(a.right - b.right) > 1;
                });
                return {name: name.textContent, nameScroll: name.scrollWidth, nameClient: name.clientWidth,
                  headerShown: shown(head), misaligned,
                  buttons: [...row.querySelectorAll('button')].filter(shown).map(b => b.getBoundingClientRect().height),
                  sortButtons: [...head.querySelectorAll('button')].filter(shown).map(b => b.getBoundingClientRect().height),
                  rowHeight: row.getBoundingClientRect().height, scrollWidth: document.documentElement.scrollWidth}""");
    }

    private static int rows(Browser browser) {
        return browser.all("#subscriptions > .table-row").size();
    }

    private static long bodyHeight(Browser browser) {
        return ((Number) browser.script("return document.querySelector('#subscriptions').getBoundingClientRect().height"))
                .longValue();
    }

    /** The names of the rows in the page, top to bottom. */
    @SuppressWarnings("unchecked")
    private static List<String> names(Browser browser) {
        return (List<String>) browser.script("""
                return [...document.querySelectorAll('#subscriptions > .table-row')]
                    .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
                    .map(row => row.querySelector('.source-link').textContent)""");
    }
}
