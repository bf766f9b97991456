package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.storage.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Stars in the browser: the card's toggle and the home page's {@code s} key, and the Starred page. */
@BrowserTest
class StarBrowserTest {

    private static final String PASSWORD = "correct horse battery";

    @LocalServerPort int port;

    @Test
    void starsByClickAndKeyAreListedOnTheStarredPageAndUnstarredThere(Browser browser) {
        ApiClient api = new ApiClient(port);
        TestUser poster = api.newUser("starposter");
        String username = ApiClient.uniqueUsername("starrer");
        browser.signUp(username, PASSWORD);
        String token = api.createToken(username, PASSWORD, "setup", "read", "write");
        ApiResponse followed = api.post("/api/v1/subscriptions", token, Map.of("user", poster.username()));
        assertThat(followed.status()).as(followed.toString()).isEqualTo(201);
        String older = api.post("/api/v1/posts", poster.token(), Map.of("text", "Older post")).json().path("id").asString();
        String newer = api.post("/api/v1/posts", poster.token(), Map.of("text", "Newer post")).json().path("id").asString();
        Await.value("two entries in the home timeline", Duration.ofSeconds(60),
                () -> api.get("/api/v1/timelines/home", token).json().size(), size -> size == 2);

        browser.open("/");
        browser.waitUntil("two cards", () -> cardIds(browser, "#timeline").equals(List.of(newer, older)));
        browser.click("#timeline .item:first-child .star-toggle");
        browser.waitUntil("the newer post starred", () -> pressed(browser, "#timeline .item:first-child .star-toggle"));
        browser.press("j");
        browser.press("j");
        browser.waitUntil("the second card selected",
                () -> browser.find("#timeline .item:nth-child(2)").getAttribute("class").contains("selected"));
        browser.press("s");
        browser.waitUntil("the older post starred by key", () -> pressed(browser, "#timeline .item:nth-child(2) .star-toggle"));
        assertThat(Deliveries.ids(api.get("/api/v1/timelines/starred", token).json())).containsExactly(older, newer);

        browser.open("/starred");
        browser.waitUntil("both starred items, newest starred first",
                () -> cardIds(browser, "#starred-items").equals(List.of(older, newer)));
        assertThat(browser.find("a[data-nav=starred]").getAttribute("aria-current")).isEqualTo("page");
        browser.click("#starred-items .item:first-child .star-toggle");
        browser.waitUntil("the unstarred item gone", () -> cardIds(browser, "#starred-items").equals(List.of(newer)));
        assertThat(Deliveries.ids(api.get("/api/v1/timelines/starred", token).json())).containsExactly(newer);

        browser.open("/starred");
        browser.waitUntil("only the one still starred", () -> cardIds(browser, "#starred-items").equals(List.of(newer)));
        assertThat(browser.consoleErrors()).isEmpty();
    }

    private static List<String> cardIds(Browser browser, String container) {
        return browser.all(container + " .item").stream().map(card -> card.getAttribute("data-id")).toList();
    }

    private static boolean pressed(Browser browser, String css) {
        return browser.exists(css) && "true".equals(browser.find(css).getAttribute("aria-pressed"));
    }
}
