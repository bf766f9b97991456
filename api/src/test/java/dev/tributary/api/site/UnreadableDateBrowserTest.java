package dev.tributary.api.site;

import static dev.tributary.api.timeline.Deliveries.entry;
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
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue 45, item 6: one item whose date the browser cannot format once emptied the whole home
 * page ("Invalid time value"). The crawler no longer stores such dates; the page must still
 * render each item on its own, so an item stored before (or published by another path) with a
 * date past JavaScript's range shows "date unknown" beside its neighbours.
 */
@BrowserTest
class UnreadableDateBrowserTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;

    @Test
    void anItemWithAnUnformattableDateShowsBesideTheGoodOnes(Browser browser) {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("baddate");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        NewItem good = entry(MediaType.TEXT);
        NewItem template = entry(MediaType.TEXT);
        // Past JavaScript's last date (+275760-09-13): new Date() reads it as Invalid Date.
        NewItem unreadable = new NewItem(template.guid(), "Far future", template.summary(), template.url(), template.author(),
                template.mediaType(), List.of(), List.of(), Instant.parse("+300000-01-01T00:00:00Z"));
        NewItem later = entry(MediaType.TEXT);
        deliveries.publish(feed, good, unreadable, later);

        browser.signIn(alice.username(), alice.password());
        browser.waitUntil("all three items on the home page", () -> browser.all("#timeline .item").size() == 3);
        assertThat(browser.all("#timeline .item .unknown-date")).hasSize(1);
        assertThat(browser.all("#timeline .item time[datetime]")).hasSize(2);
        assertThat(browser.exists("#timeline-error:not([hidden])")).isFalse();
        assertThat(browser.consoleErrors()).isEmpty();
    }
}
