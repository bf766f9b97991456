package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** The item page: the item, liking it, and its comments, as the reader sees them and as the API then has them. */
@BrowserTest
class ItemBrowserTest {

    private static final String HOSTILE = "<img src=x onerror=\"window.__pwned=1\"> & <b>bold</b>";

    @LocalServerPort int port;
    private ApiClient api;
    private TestUser reader;
    private TestUser poster;
    private String item;

    @BeforeEach
    void aPostBySomeoneElse() {
        api = new ApiClient(port);
        reader = api.newUser("reader");
        poster = api.newUser("poster");
        ApiResponse posted = api.post("/api/v1/posts", poster.token(), Map.of("text", "Soup recipes for winter"));
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
        item = posted.json().path("id").asString();
    }

    @Test
    void likeThenUnlikeShowsTheCountAndMyState(Browser browser) {
        api.post(likePath(), poster.token(), null);
        openItem(browser);
        browser.waitForText("#like-count", "1 like");
        assertThat(browser.find("#like-toggle").getAttribute("aria-pressed")).isEqualTo("false");
        browser.waitUntil("no read toggle on an item outside my timeline", () -> !browser.exists(".item .mark-read"));

        browser.click("#like-toggle");
        browser.waitUntil("the item liked", () -> "true".equals(browser.find("#like-toggle").getAttribute("aria-pressed")));
        assertThat(browser.text("#like-count")).isEqualTo("2 likes");
        JsonNode liked = api.get(likePath(), reader.token()).json();
        assertThat(liked.path("liked").asBoolean()).isTrue();
        assertThat(liked.path("likes_count").asLong()).isEqualTo(2);

        browser.click("#like-toggle");
        browser.waitUntil("the item unliked", () -> "false".equals(browser.find("#like-toggle").getAttribute("aria-pressed")));
        assertThat(browser.text("#like-count")).isEqualTo("1 like");
        JsonNode unliked = api.get(likePath(), reader.token()).json();
        assertThat(unliked.path("liked").asBoolean()).isFalse();
        assertThat(unliked.path("likes_count").asLong()).isEqualTo(1);

        browser.open("/items/" + item);
        browser.waitForText("#like-count", "1 like");
        assertThat(browser.find("#like-toggle").getAttribute("aria-pressed")).as("after a reload").isEqualTo("false");
    }

    @Test
    void aNewCommentAppearsWithoutReloadAndIsCounted(Browser browser) {
        comment(poster, "First from the poster");
        openItem(browser);
        browser.waitForText(".comment-text", "First from the poster");
        assertThat(browser.text("#comment-count")).isEqualTo("(1)");
        browser.script("window.__samePage = true");

        browser.type("#comment-text", "Lovely\nsecond line");
        browser.click("#comment-form button[type=submit]");

        browser.waitForText(".comment-text", "Lovely");
        assertThat(browser.script("return window.__samePage === true")).as("no reload").isEqualTo(true);
        assertThat(browser.all(".comment-text")).extracting(WebElement::getText)
                .containsExactly("First from the poster", "Lovely\nsecond line");
        assertThat(browser.text("#comment-count")).isEqualTo("(2)");
        assertThat(browser.text(".item .item-actions .comments")).isEqualTo("2 comments");
        assertThat(browser.find("#comment-text").getAttribute("value")).as("the form is cleared").isEmpty();
        assertThat(api.get("/api/v1/items/" + item, reader.token()).json().path("comments_count").asLong()).isEqualTo(2);
        assertThat(api.get(commentsPath(), reader.token()).json().findValuesAsString("text"))
                .containsExactly("First from the poster", "Lovely\nsecond line");
    }

    @Test
    void blankCommentsAndRefusalsAreExplained(Browser browser) {
        openItem(browser);
        browser.waitFor("#comment-form");

        browser.click("#comment-form button[type=submit]");
        browser.waitForText("#comment-error", "Write something");
        browser.type("#comment-text", "   \n  ");
        browser.click("#comment-form button[type=submit]");
        browser.waitForText("#comment-error", "Write something");
        assertThat(browser.all(".comment")).isEmpty();

        // The post goes away while the page is open: the API's refusal is shown, in words.
        assertThat(api.delete("/api/v1/posts/" + item, poster.token()).status()).isEqualTo(204);
        browser.type("#comment-text", "Too late");
        browser.click("#comment-form button[type=submit]");
        WebElement error = browser.waitForText("#comment-error", "No such item.");
        assertThat(error.getText()).doesNotContain("{").doesNotContain("status");
        assertThat(browser.all(".comment")).isEmpty();
        assertThat(browser.find("#comment-text").getAttribute("value")).as("kept to try again").isEqualTo("Too late");
    }

    @Test
    void aHostileCommentIsShownAsText(Browser browser) {
        comment(poster, HOSTILE);
        openItem(browser);
        browser.waitForText(".comment-text", "onerror");
        browser.type("#comment-text", HOSTILE + " again");
        browser.click("#comment-form button[type=submit]");
        browser.waitForText(".comment-text", "again");

        assertThat(browser.all(".comment-text")).extracting(WebElement::getText).containsExactly(HOSTILE, HOSTILE + " again");
        assertThat(browser.all("#comment-list img, #comment-list b")).isEmpty();
        assertThat(browser.script("return window.__pwned === undefined")).isEqualTo(true);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void iDeleteMyOwnCommentAfterConfirmingButNotOthers(Browser browser) {
        comment(poster, "The poster's words");
        String mine = comment(reader, "Mine to delete").json().path("id").asString();
        openItem(browser);
        browser.waitForText(".comment-text", "Mine to delete");
        assertThat(browser.all(".comment")).hasSize(2);
        assertThat(browser.all(".comment:nth-child(1) .comment-delete")).as("not offered on another's comment").isEmpty();
        assertThat(browser.all(".comment:nth-child(2) .comment-delete")).hasSize(1);

        browser.click(".comment[data-id='" + mine + "'] .comment-delete");
        browser.waitFor("dialog.confirm");
        assertThat(browser.text("dialog.confirm")).contains("Delete your comment?");
        browser.click("dialog.confirm .confirm-no");
        browser.waitUntil("the dialog closed", () -> !browser.exists("dialog.confirm"));
        assertThat(browser.all(".comment")).as("cancelled").hasSize(2);

        browser.click(".comment[data-id='" + mine + "'] .comment-delete");
        browser.click("dialog.confirm .confirm-yes");
        browser.waitUntil("my comment gone", () -> browser.all(".comment").size() == 1);
        assertThat(browser.text(".comment-text")).isEqualTo("The poster's words");
        assertThat(browser.text("#comment-count")).isEqualTo("(1)");
        assertThat(api.get(commentsPath(), reader.token()).json().findValuesAsString("text"))
                .containsExactly("The poster's words");
    }

    @Test
    void aMissingOrHiddenItemIsNotFound(Browser browser) {
        browser.signIn(reader.username(), reader.password());
        browser.open("/items/999999999999");
        browser.waitForText("#not-found", "Item not found");
        assertThat(browser.find("#reactions").isDisplayed()).isFalse();

        String group = api.post("/api/v1/groups", poster.token(), Map.of("name", "Members only")).json().path("id").asString();
        String secret = api.post("/api/v1/groups/" + group + "/posts", poster.token(), Map.of("text", "secret"))
                .json().path("id").asString();
        browser.open("/items/" + secret);
        browser.waitForText("#not-found", "Item not found");
        assertThat(browser.find("#item").getText()).doesNotContain("secret");
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }

    @Test
    void openingAnItemFromMyTimelineMarksItReadAndFitsAPhone(Browser browser) {
        ApiResponse followed = api.post("/api/v1/subscriptions", reader.token(), Map.of("user", poster.username()));
        assertThat(followed.status()).as(followed.toString()).isIn(200, 201);
        String delivered = api.post("/api/v1/posts", poster.token(),
                Map.of("text", "A long word: " + "x".repeat(300) + " and a link", "url", "https://example.com/" + "y".repeat(200)))
                .json().path("id").asString();
        browser.waitUntil("the post in the reader's timeline", () -> api.get("/api/v1/timelines/home", reader.token())
                .json().findValuesAsString("id").contains(delivered));
        assertThat(api.get("/api/v1/items/" + delivered, reader.token()).json().path("read").asBoolean()).isFalse();

        browser.signIn(reader.username(), reader.password());
        browser.resize(375, 800);
        browser.open("/items/" + delivered);
        browser.waitFor("#like-toggle");
        browser.waitUntil("the item marked read", () ->
                api.get("/api/v1/items/" + delivered, reader.token()).json().path("read").asBoolean());
        browser.waitForText(".item .mark-read", "Mark unread");
        assertThat(browser.find(".item").getAttribute("class")).contains("read");
        assertThat(api.post("/api/v1/items/" + delivered + "/comments", poster.token(), Map.of("text", "w".repeat(500)))
                .status()).isEqualTo(201);
        browser.open("/items/" + delivered);
        browser.waitForText(".comment-text", "www");

        assertThat(browser.horizontalOverflow()).isLessThanOrEqualTo(0);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    private void openItem(Browser browser) {
        browser.signIn(reader.username(), reader.password());
        browser.open("/items/" + item);
        browser.waitForText(".item-summary", "Soup recipes");
    }

    private ApiResponse comment(TestUser user, String text) {
        ApiResponse created = api.post(commentsPath(), user.token(), Map.of("text", text));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created;
    }

    private String likePath() {
        return "/api/v1/items/" + item + "/like";
    }

    private String commentsPath() {
        return "/api/v1/items/" + item + "/comments";
    }
}
