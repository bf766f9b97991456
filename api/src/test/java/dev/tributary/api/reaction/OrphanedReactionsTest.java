package dev.tributary.api.reaction;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The orphaned-comments retention job: reactions of deleted items go, those of live items stay. */
@ApiTest
class OrphanedReactionsTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired OrphanedReactions job;
    @Autowired JdbcClient jdbc;

    @Test
    void commentsAndLikesOfATombstonedItemAreRemovedAndALiveItemsStay() {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        TestUser alice = api.newUser("orphan");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        List<Long> items = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT), entry(MediaType.TEXT));
        long deleted = items.get(0);
        long live = items.get(1);
        for (long item : items) {
            assertThat(api.post("/api/v1/items/" + item + "/comments", alice.token(), Map.of("text", "hi")).status()).isEqualTo(201);
            assertThat(api.post("/api/v1/items/" + item + "/comments", alice.token(), Map.of("text", "again")).status()).isEqualTo(201);
            assertThat(api.post("/api/v1/items/" + item + "/like", alice.token(), null).status()).isEqualTo(200);
        }
        publisher.tombstone(deleted);

        AtomicLong reported = new AtomicLong();
        long removed = job.sweep(reported::addAndGet);

        assertThat(rows("comments", deleted)).isZero();
        assertThat(rows("likes", deleted)).isZero();
        assertThat(rows("item_reactions", deleted)).isZero();
        assertThat(rows("comments", live)).isEqualTo(2);
        assertThat(rows("likes", live)).isEqualTo(1);
        assertThat(api.get("/api/v1/items/" + live + "/comments", alice.token()).json().size()).isEqualTo(2);
        assertThat(removed).as("other tests' tombstoned items may be swept too").isGreaterThanOrEqualTo(2);
        assertThat(reported.get()).isEqualTo(removed);
        assertThat(job.sweep(count -> { })).as("a second sweep finds nothing").isZero();
    }

    private long rows(String table, long item) {
        return jdbc.sql("SELECT COUNT(*) FROM " + table + " WHERE item_id = ?").param(item).query(Long.class).single();
    }
}
