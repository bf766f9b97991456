package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Every page of the web front end scanned by axe-core (Deque's accessibility engine, the npm
 * package's axe.min.js, kept in the test resources) inside the page, at 1366×900 and 390×844, light
 * and dark: no serious or critical violation. A screenshot of each page at each size is kept in
 * {@code api/target/screenshots/} for people to look at.
 */
@BrowserTest
class AccessibilityBrowserTest {

    @RegisterExtension
    static final FeedServerExtension FEEDS = new FeedServerExtension();
    private static final String PASSWORD = "correct horse battery";
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final String AXE = axeSource();

    @LocalServerPort int port;

    private static String axeSource() {
        try (InputStream in = AccessibilityBrowserTest.class.getResourceAsStream("/axe/axe.min.js")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The serious and critical violations axe finds in the page as it is now, one line each. */
    @SuppressWarnings("unchecked")
    private static List<String> seriousViolations(Browser browser) {
        if (!Boolean.TRUE.equals(browser.script("return typeof window.axe === 'object'"))) {
            browser.script(AXE);
        }
        Object found = browser.asyncScript("""
                const done = arguments[arguments.length - 1];
                window.axe.run(document, {resultTypes: ['violations']}).then(result => done(result.violations
                    .filter(v => v.impact === 'serious' || v.impact === 'critical')
                    .flatMap(v => v.nodes.slice(0, 5).map(n => v.impact + ' ' + v.id + ': ' + n.target.join(' ')
                        + ' — ' + (n.failureSummary || '').replaceAll('\\n', ' ')))));
                """);
        return new ArrayList<>((List<String>) found);
    }

    /** Waits until the page's script has filled it (nothing still busy or loading). */
    private static void settle(Browser browser) {
        browser.waitUntil("the page filled", () -> Boolean.TRUE.equals(browser.script("""
                return document.readyState === 'complete'
                    && !document.querySelector('[aria-busy="true"]')
                    && ![...document.querySelectorAll('[id$="-loading"], .loading')].some(e => e.checkVisibility())""")));
    }

    @Test
    void everyPageHasNoSeriousOrCriticalViolationsAtBothSizesLightAndDark(Browser browser) {
        ApiClient api = new ApiClient(port);
        Map<String, List<String>> problems = new LinkedHashMap<>();

        // Signed out: the sign-in and sign-up pages.
        scan(browser, "login", "/login", problems);
        scan(browser, "signup", "/signup", problems);

        String username = ApiClient.uniqueUsername("axe");
        browser.signUp(username, PASSWORD);
        String token = api.createToken(username, PASSWORD, "setup", "read", "write");
        String path = "/axe-feeds/feed.xml";
        FEEDS.feed(path, TestFeeds.numbered("Accessible", 5, Instant.now().minus(1, ChronoUnit.HOURS)));
        ApiResponse subscribed = api.post("/api/v1/subscriptions", token, Map.of("url", FEEDS.url(path).toString()));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        String sourceId = subscribed.json().path("source").path("id").asString();
        Await.value("five entries", Duration.ofSeconds(60),
                () -> api.get("/api/v1/timelines/home?limit=100", token).json().size(), size -> size == 5);
        String itemId = api.get("/api/v1/timelines/home?limit=1", token).json().get(0).path("id").asString();
        assertThat(api.post("/api/v1/folders", token, Map.of("name", "Reading")).status()).isEqualTo(201);

        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("home", "/");
        pages.put("sources", "/sources");
        pages.put("source", "/sources/" + sourceId);
        pages.put("item", "/items/" + itemId);
        pages.put("groups", "/groups");
        pages.put("starred", "/starred");
        pages.put("rules", "/rules");
        pages.put("settings", "/settings");
        pages.put("search", "/search?q=entry");
        pages.put("person", "/people/" + username);
        pages.put("not-found", "/nope");
        pages.put("bad-request", "/sources;x");
        pages.forEach((name, page) -> scan(browser, name, page, problems));
        // The sources table with a subscription's panel open, and filtered to nothing.
        scan(browser, "sources-manage", "/sources", problems, () -> {
            browser.click(".subscription-row .manage");
            browser.waitFor("#subscription-panel .subscription");
        });
        // On a phone the forms fold away behind a button: unfolded.
        scan(browser, "sources-forms", "/sources", problems, () -> {
            if (browser.find("#source-forms-toggle").isDisplayed()) {
                browser.click("#source-forms-toggle");
                browser.waitUntil("the forms unfolded", () -> browser.find("#subscribe-url").isDisplayed());
            }
        });
        scan(browser, "sources-filtered", "/sources", problems, () -> {
            browser.type("#subscription-filter", "nothing matches this");
            browser.waitFor("#subscriptions-none");
        });
        browser.emulateColorScheme("dark");
        for (String name : List.of("home", "sources", "item", "settings", "bad-request")) {
            scan(browser, name + "-dark", pages.get(name), problems);
        }
        assertThat(problems).as("serious or critical axe violations by page").isEmpty();
    }

    private void scan(Browser browser, String name, String page, Map<String, List<String>> problems) {
        scan(browser, name, page, problems, () -> { });
    }

    /** Scans {@code page} at both sizes after {@code then} (a state a person reaches from it). */
    private void scan(Browser browser, String name, String page, Map<String, List<String>> problems, Runnable then) {
        for (int[] size : ReaderBrowserTest.SCREENS) {
            browser.resizeViewport(size[0], size[1]);
            browser.open(page);
            settle(browser);
            then.run();
            browser.saveScreenshot(SCREENSHOTS.resolve(name + "-" + size[0] + "x" + size[1] + ".png"));
            List<String> found = seriousViolations(browser);
            if (!found.isEmpty()) {
                problems.put(name + " at " + size[0] + "x" + size[1], found);
            }
        }
    }
}
