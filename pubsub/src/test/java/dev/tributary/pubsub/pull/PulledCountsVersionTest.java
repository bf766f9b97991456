package dev.tributary.pubsub.pull;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxSettings;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithPullThreshold;
import dev.tributary.storage.IdGenerator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A follower of pulled sources has a version of their unread counts, as a follower of pushed ones
 * has: every publish, tombstone and read mark of a pulled source they follow moves it, and the
 * counts say when they age on their own (their oldest unread pulled item leaves the horizon).
 */
@WithPullThreshold
class PulledCountsVersionTest {

    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired HomeFeed feed;
    @Autowired Fixtures fixtures;
    @Autowired InboxSettings horizon;

    /** The version, once the node has read the person's list of pulled sources (as any read of their counts does). */
    private String version(long reader) {
        feed.unreadByFolder(reader);
        String version = feed.unreadVersion(reader);
        assertThat(version).isNotNull();
        return version;
    }

    @Test
    void everyChangeOfAPulledSourceOrOfTheReadersMarksMovesTheVersion() {
        long source = fixtures.feed();
        fixtures.subscribe(source, fixtures.people(3));
        long reader = fixtures.person();
        long bystander = fixtures.person();
        subscriptions.subscribe(reader, source, null);
        subscriptions.subscribe(bystander, fixtures.feed(), null);
        List<Long> ids = publisher.publish(source, List.of(entry("v-1"), entry("v-2"))).created();

        String before = version(reader);
        assertThat(feed.unreadVersion(reader)).as("nothing changed").isEqualTo(before);
        assertThat(feed.unreadVersions(List.of(reader, bystander))).as("read together, as a stream batch reads them")
                .containsEntry(reader, before);

        publisher.publish(source, List.of(entry("v-3")));
        String published = version(reader);
        assertThat(published).as("a pulled publish").isNotEqualTo(before);

        assertThat(feed.markRead(reader, ids.getFirst())).isTrue();
        String marked = version(reader);
        assertThat(marked).as("a pulled item read").isNotEqualTo(published);

        assertThat(publisher.tombstone(ids.getLast())).isTrue();
        assertThat(version(reader)).as("a pulled item tombstoned").isNotEqualTo(marked);
    }

    @Test
    void pulledCountsAgeWhenTheirOldestUnreadItemLeavesTheHorizon() {
        long source = fixtures.feed();
        fixtures.subscribe(source, fixtures.people(3));
        long reader = fixtures.person();
        long pushedOnly = fixtures.person();
        subscriptions.subscribe(reader, source, null);
        subscriptions.subscribe(pushedOnly, fixtures.feed(), null);
        List<Long> ids = publisher.publish(source, List.of(entry("a-1"), entry("a-2"))).created();

        HomeFeed.UnreadByFolder counts = feed.unreadByFolder(reader);
        assertThat(counts.unread().total()).isEqualTo(2);
        long oldest = ids.stream().mapToLong(Long::longValue).min().orElseThrow();
        assertThat(counts.agesAt()).isEqualTo(IdGenerator.timestampOf(oldest).plus(horizon.keep()));

        assertThat(feed.markRead(reader, oldest)).isTrue();
        long next = ids.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(feed.unreadByFolder(reader).agesAt()).as("the oldest unread one is the other now")
                .isEqualTo(IdGenerator.timestampOf(next).plus(horizon.keep()));

        assertThat(feed.markRead(reader, next)).isTrue();
        assertThat(feed.unreadByFolder(reader).agesAt()).as("no unread pulled item: nothing ages").isNull();
        assertThat(feed.unreadByFolder(pushedOnly).agesAt()).as("no pulled source").isNull();
        Map<Long, HomeFeed.UnreadByFolder> both = feed.unreadByFolder(List.of(reader, pushedOnly));
        assertThat(both.get(reader).unread().total()).isZero();
    }
}
