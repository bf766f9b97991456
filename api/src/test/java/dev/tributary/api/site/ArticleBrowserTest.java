package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.storage.testing.Await;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/** "Read full article" on a card: the article the server read from the item's page, shown and hidden in place. */
@BrowserTest
class ArticleBrowserTest {

    private static final String PASSWORD = "correct horse battery";

    @RegisterExtension
    final FeedServerExtension site = new FeedServerExtension();

    @LocalServerPort int port;

    @Test
    void theFullArticleOpensUnderTheCardAndARefusalSaysWhy(Browser browser) {
        StringBuilder page = new StringBuilder("<html><head><title>Whole story</title></head><body><nav>Menu</nav><article>");
        for (int i = 0; i < 6; i++) {
            page.append("<p>Paragraph ").append(i).append(" of the whole story, with commas, clauses, and words enough to be prose.</p>");
        }
        site.feed("/story", page.append("<script>alert(1)</script></article></body></html>").toString(), "text/html", Map.of());
        site.respond("/paper.pdf", 200, Map.of("Content-Type", "application/pdf"), "%PDF-1.7");
        ApiClient api = new ApiClient(port);
        TestUser poster = api.newUser("linker");
        String username = ApiClient.uniqueUsername("fullreader");
        browser.signUp(username, PASSWORD);
        String token = api.createToken(username, PASSWORD, "setup", "read", "write");
        ApiResponse followed = api.post("/api/v1/subscriptions", token, Map.of("user", poster.username()));
        assertThat(followed.status()).as(followed.toString()).isEqualTo(201);
        api.post("/api/v1/posts", poster.token(), Map.of("text", "Only a PDF", "url", site.url("/paper.pdf").toString()));
        api.post("/api/v1/posts", poster.token(), Map.of("text", "Read this one", "url", site.url("/story").toString()));
        Await.value("two entries in the home timeline", Duration.ofSeconds(60),
                () -> api.get("/api/v1/timelines/home", token).json().size(), size -> size == 2);

        browser.open("/");
        browser.waitFor("#timeline .item:first-child .full-article");
        browser.click("#timeline .item:first-child .full-article");
        browser.waitForText("#timeline .item:first-child .item-article", "Paragraph 5 of the whole story");
        assertThat(browser.text("#timeline .item:first-child .full-article")).isEqualTo("Hide full article");
        assertThat(browser.exists("#timeline .item:first-child .item-article script")).isFalse();
        assertThat(browser.text("#timeline .item:first-child .item-article")).doesNotContain("Menu");

        browser.click("#timeline .item:first-child .full-article");
        browser.waitUntil("the article hidden", () -> !browser.find("#timeline .item:first-child .item-article").isDisplayed());
        assertThat(site.requests("/story")).as("shown again from the page, not fetched again").hasSize(1);

        browser.click("#timeline .item:nth-child(2) .full-article");
        browser.waitForText(".toast", "not HTML");
        assertThat(browser.exists("#timeline .item:nth-child(2) .item-article")).isFalse();
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void aFeedIsReadInFullFromTheSourcesPage(Browser browser) {
        site.feed("/teasers.xml", "<rss version='2.0'><channel><title>Teasers only</title></channel></rss>");
        ApiClient api = new ApiClient(port);
        String username = ApiClient.uniqueUsername("fullfeed");
        browser.signUp(username, PASSWORD);
        String token = api.createToken(username, PASSWORD, "setup", "read", "write");
        ApiResponse subscribed = api.post("/api/v1/subscriptions", token, Map.of("url", site.url("/teasers.xml").toString()));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);

        browser.open("/sources");
        browser.click(".subscription-row .manage");
        browser.waitFor(".subscription .full-content");
        assertThat(browser.find(".subscription .full-content").isSelected()).isFalse();
        browser.click(".subscription .full-content");
        browser.waitUntil("the subscription read in full",
                () -> api.get("/api/v1/subscriptions", token).json().get(0).path("full_content").asBoolean());

        browser.open("/sources");
        browser.click(".subscription-row .manage");
        browser.waitFor(".subscription .full-content");
        browser.waitUntil("shown ticked after a reload", () -> browser.find(".subscription .full-content").isSelected());
        browser.click(".subscription .full-content");
        browser.waitUntil("no longer read in full",
                () -> !api.get("/api/v1/subscriptions", token).json().get(0).path("full_content").asBoolean());
        assertThat(browser.consoleErrors()).isEmpty();
    }
}
