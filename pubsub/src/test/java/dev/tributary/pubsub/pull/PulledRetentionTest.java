package dev.tributary.pubsub.pull;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithPullThreshold;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What pulled sources keep for items older than {@code tributary.inbox.keep} is removed in
 * batches, and nothing a reader sees (pages, counts) changes: no read took those rows any more.
 */
@WithPullThreshold
class PulledRetentionTest {

    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired HomeFeed feed;
    @Autowired Fixtures fixtures;
    @Autowired JdbcClient jdbc;

    @Test
    void rowsPastTheHorizonGoAndEverythingYoungerStays() {
        long source = fixtures.feed();
        fixtures.subscribe(source, fixtures.people(3));
        long reader = fixtures.person();
        subscriptions.subscribe(reader, source, null);
        List<Long> fresh = publisher.publish(source, List.of(entry("keep-1"), entry("keep-2"), entry("keep-3"))).created();
        assertThat(feed.markRead(reader, fresh.getFirst())).isTrue();
        // Ids from long before the horizon (ids grow with time), as rows a source pulled a year ago left.
        for (long old = 1_000; old < 1_005; old++) {
            jdbc.sql("INSERT INTO pulled_items (source_id, item_id, media) VALUES (?, ?, 1)").params(source, old).update();
        }
        jdbc.sql("INSERT INTO pulled_marks (user_id, source_id, item_id, is_read) VALUES (?, ?, 1000, TRUE)").params(reader, source).update();
        List<Long> page = ids(reader);
        Unread unread = feed.unread(reader);

        List<Long> batches = new ArrayList<>();
        long removed = feed.removeBeyondHorizon(2, batches::add);

        assertThat(removed).as("five old items and one old mark").isEqualTo(6);
        assertThat(batches.stream().mapToLong(Long::longValue).sum()).isEqualTo(removed);
        assertThat(batches).allMatch(batch -> batch <= 2);
        assertThat(jdbc.sql("SELECT item_id FROM pulled_items WHERE source_id = ? ORDER BY item_id").param(source)
                .query(Long.class).list()).containsExactlyInAnyOrderElementsOf(fresh);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM pulled_marks WHERE user_id = ?").param(reader).query(Long.class).single())
                .as("the fresh item's mark stays").isEqualTo(1);
        assertThat(ids(reader)).isEqualTo(page);
        assertThat(feed.unread(reader)).isEqualTo(unread);
        assertThat(feed.removeBeyondHorizon(2, batches::add)).as("nothing left").isZero();
    }

    private List<Long> ids(long person) {
        return feed.page(person, TimelineQuery.newest(20)).stream().map(TimelineEntry::id).toList();
    }
}
