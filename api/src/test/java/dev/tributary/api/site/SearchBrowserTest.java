package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.storage.testing.DeferredIndexing;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The search box in the navigation bar, the results page, its marked words, and hostile text kept as text. */
@BrowserTest
class SearchBrowserTest {

    private static final String PASSWORD = "correct horse battery";

    @LocalServerPort int port;
    @Autowired JdbcClient jdbc;

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
}
