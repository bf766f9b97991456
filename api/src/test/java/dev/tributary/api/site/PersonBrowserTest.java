package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** A person's page: their posts, follow and unfollow, their public feeds, unknown people, one's own page. */
@BrowserTest
class PersonBrowserTest {

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void followsAPersonFromTheirPageThenUnfollows(Browser browser) {
        TestUser alice = api.newUser("webfan");
        TestUser bob = api.newUser("webstar");
        api.post("/api/v1/posts", bob.token(), Map.of("text", "Hello from Bob's page"));
        browser.signIn(alice.username(), alice.password());

        browser.open("/people/" + bob.username());
        browser.waitForText("#person-name", bob.username());
        browser.waitForText(".item", "Hello from Bob's page");
        assertThat(browser.find("#person-rss").getAttribute("href")).endsWith("/feeds/users/" + bob.username() + ".rss");
        assertThat(browser.find("#person-atom").getAttribute("href")).endsWith("/feeds/users/" + bob.username() + ".atom");

        browser.waitForText("#person-actions .follow", "Follow");
        browser.click("#person-actions .follow");
        browser.waitForText("#person-actions .follow", "Unfollow");
        JsonNode subscriptions = api.get("/api/v1/subscriptions", alice.token()).json();
        assertThat(subscriptions.size()).isEqualTo(1);
        assertThat(subscriptions.get(0).path("source").path("title").asString()).isEqualTo(bob.username());

        // Following is real: Bob's next post reaches Alice's home timeline; the page still knows she follows.
        api.post("/api/v1/posts", bob.token(), Map.of("text", "Second post for followers"));
        browser.waitUntil("Bob's post in Alice's home timeline", () -> api.get("/api/v1/timelines/home", alice.token())
                .body().contains("Second post for followers"));
        browser.open("/people/" + bob.username());
        browser.waitForText(".item", "Second post for followers");
        browser.waitForText("#person-actions .follow", "Unfollow");

        browser.click("#person-actions .follow");
        browser.waitForText("#person-actions .confirm", "Stop following?");
        browser.click("#person-actions .confirm-yes");
        browser.waitUntil("the button to say Follow", () -> browser.text("#person-actions .follow").equals("Follow"));
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isZero();

        browser.resize(375, 800);
        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void anUnknownPersonSaysSo(Browser browser) {
        TestUser alice = api.newUser("weblook");
        browser.signIn(alice.username(), alice.password());

        browser.open("/people/nobody_is_called_this");
        browser.waitForText("#person-missing", "Nobody is called nobody_is_called_this.");
        assertThat(browser.find("#person-found").isDisplayed()).isFalse();
        assertThat(browser.all("#person-actions .follow")).isEmpty();
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void onesOwnPageHasNoFollowButton(Browser browser) {
        TestUser alice = api.newUser("webself");
        api.post("/api/v1/posts", alice.token(), Map.of("text", "My own words"));
        browser.signIn(alice.username(), alice.password());

        browser.click("#me-link");
        browser.waitForText(".item", "My own words");
        browser.waitFor("#person-self");
        assertThat(browser.path()).isEqualTo("/people/" + alice.username());
        assertThat(browser.all("#person-actions .follow")).isEmpty();
        assertThat(browser.consoleErrors()).isEmpty();
    }
}
