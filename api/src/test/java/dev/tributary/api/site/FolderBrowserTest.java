package dev.tributary.api.site;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.Browser;
import dev.tributary.api.testing.BrowserTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Folders in a real browser: creating one and filing a subscription in it (and naming the
 * subscription) on the sources page, the folder's unread count in the home sidebar, filtering the
 * timeline by folder (kept in the URL), and hostile folder names shown as text.
 */
@BrowserTest
class FolderBrowserTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;

    @Test
    void aSubscriptionFiledInAFolderCountsInTheSidebarAndTheFolderFiltersTheTimeline(Browser browser) {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("foldb");
        long filed = deliveries.feed();
        long other = deliveries.feed();
        deliveries.follow(alice, filed);
        deliveries.follow(alice, other);
        deliveries.deliver(filed, List.of(alice), entry(MediaType.TEXT), entry(MediaType.TEXT));
        deliveries.deliver(other, List.of(alice), entry(MediaType.TEXT));
        browser.signIn(alice.username(), alice.password());

        browser.open("/sources");
        browser.type("#folder-name", "Reading");
        browser.click("#folder-form button[type=submit]");
        browser.waitForText("#folders .folder-name", "Reading");
        browser.click(".subscription-row[data-source=\"" + filed + "\"] .manage");
        String row = "#subscription-panel .subscription[data-source=\"" + filed + "\"]";
        browser.click(row + " .organise");
        browser.type(row + " .subscription-title", "My reading feed");
        browser.click(row + " input[name=folder]");
        browser.click(row + " .save-folders");
        browser.waitForText(row + " .folders-value", "Reading");
        browser.waitForText(row + " .source-link", "My reading feed");

        browser.open("/");
        browser.waitForText(".folder-link", "Reading");
        browser.waitUntil("the folder's unread count", () -> browser.text(".folder-count").equals("2"));
        browser.waitForText("#source-list .source-link", "My reading feed");
        browser.waitUntil("all three items", () -> browser.all("#timeline .item").size() == 3);
        browser.click(".folder-link");

        browser.waitUntil("the folder's items only", () -> browser.url().contains("folder_id=")
                && browser.all("#timeline .item").size() == 2);
        assertThat(browser.find(".folder-link").getAttribute("aria-current")).isEqualTo("true");
        browser.open(browser.path() + "?" + browser.url().split("\\?", 2)[1]);
        browser.waitUntil("the folder filter kept on reload", () -> browser.all("#timeline .item").size() == 2);

        // "Mark all read" in a folder marks the folder's sources through the marker, not only the cards shown.
        browser.waitForText("#mark-all-read", "Mark all read");
        assertThat(browser.text("#mark-all-scope")).contains("Reading");
        browser.click("#mark-all-read");
        browser.waitUntil("the folder's count at zero", () -> browser.text(".folder-count").equals("0"));
        JsonNode unread = api.get("/api/v1/unread", alice.token()).json();
        assertThat(unread.path("total").asLong()).isEqualTo(1);
        assertThat(unread.path("by_source").path(String.valueOf(other)).asLong()).isEqualTo(1);
        assertThat(browser.consoleErrors()).isEmpty();
    }

    @Test
    void hostileFolderNamesStayText(Browser browser) {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("foldx");
        String hostile = "<img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script>";
        String folder = api.post("/api/v1/folders", alice.token(), Map.of("name", hostile)).json().path("id").asString();
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        browser.signIn(alice.username(), alice.password());

        browser.waitUntil("the folder in the sidebar", () -> browser.all(".folder-link").stream()
                .anyMatch(link -> link.getText().equals(hostile)));
        browser.open("/sources");
        browser.waitUntil("the folder on the sources page", () -> browser.all("#folders .folder-name a").stream()
                .anyMatch(link -> link.getText().equals(hostile)));
        browser.click(".subscription-row .manage");
        browser.click(".subscription .organise");
        browser.waitUntil("the folder to choose", () -> browser.all(".folder-choice").stream()
                .anyMatch(choice -> choice.getText().contains(hostile)));

        assertThat(browser.script("return window.pwned === undefined")).isEqualTo(true);
        assertThat(browser.exists(".folder-link img, #folders img, .folder-choice img, .folder-choice script")).isFalse();
        assertThat(folder).isNotEmpty();
        assertThat(browser.consoleErrors()).isEmpty();
    }
}
