package dev.tributary.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The Rules page in a real browser: create a rule scoped to one source (its hostile pattern shown
 * as text), see it act on a delivery and count it, edit it (the count starts again), see a bad
 * regular expression refused with RE2's message, delete it.
 */
@BrowserTest
class RuleBrowserTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;

    @Test
    void aRuleIsCreatedCountsWhatItDidIsEditedAndDeleted(Browser browser) {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("ruleb");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        browser.signIn(alice.username(), alice.password());
        String hostile = "<b>digest</b>";

        browser.open("/rules");
        browser.waitUntil("the empty list said so", () -> browser.find("#no-rules").isDisplayed());
        browser.waitFor("#rule-scope option[value=\"source:" + feed + "\"]");
        browser.click("#rule-action option[value=mark_read]");
        browser.type("#rule-pattern", hostile);
        browser.click("#rule-scope option[value=\"source:" + feed + "\"]");
        browser.click("#rule-save");
        browser.waitForText("#rule-list .rule-pattern", hostile);
        assertThat(browser.text("#rule-list .rule-action")).isEqualTo("Mark read");
        assertThat(browser.exists("#rule-list b")).as("the pattern is text, not markup").isFalse();
        JsonNode created = api.get("/api/v1/rules", alice.token()).json().get(0);
        assertThat(created.path("source_id").asString()).isEqualTo(String.valueOf(feed));

        NewItem entry = Deliveries.entry(MediaType.TEXT);
        deliveries.deliver(feed, List.of(alice), new NewItem(entry.guid(), "Weekly " + hostile, entry.summary(), entry.url(),
                entry.author(), entry.mediaType(), entry.media(), entry.tags(), entry.publishedAt()));
        browser.open("/rules");
        browser.waitForText("#rule-list .rule-matched", "1 matched");
        assertThat(browser.find("a[data-nav=rules]").getAttribute("aria-current")).isEqualTo("page");
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).as("delivered read").isZero();

        browser.click("#rule-list .rule .edit");
        browser.find("#rule-pattern").clear();
        browser.type("#rule-pattern", "newsletter");
        browser.click("#rule-save");
        browser.waitForText("#rule-list .rule-pattern", "newsletter");
        assertThat(browser.text("#rule-list .rule-matched")).isEqualTo("0 matched");
        assertThat(api.get("/api/v1/rules", alice.token()).json().size()).as("edited, not added").isEqualTo(1);

        browser.click("#rule-match option[value=regex]");
        browser.type("#rule-pattern", "(a");
        browser.click("#rule-save");
        browser.waitUntil("the regex refused", () -> browser.find("#rule-form-error").isDisplayed()
                && browser.text("#rule-form-error").contains("missing closing )"));
        // Said once, in the front end's voice, with the pattern as the person wrote it.
        assertThat(browser.text("#rule-form-error")).startsWith("The pattern is not a valid regular expression")
                .doesNotContain("(?i)").doesNotContain("Invalid request");
        assertThat(browser.text("#rule-form-error").split("missing closing", -1)).hasSize(2);

        browser.click("#rule-list .rule .delete");
        browser.click("dialog.confirm .confirm-yes");
        browser.waitUntil("the rule gone", () -> browser.all("#rule-list .rule").isEmpty());
        assertThat(api.get("/api/v1/rules", alice.token()).json().size()).isZero();
        assertThat(browser.consoleErrorsBesidesApiRefusals()).isEmpty();
    }
}
