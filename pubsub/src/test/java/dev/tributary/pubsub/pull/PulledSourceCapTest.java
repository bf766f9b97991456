package dev.tributary.pubsub.pull;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithPullThreshold;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Past {@code tributary.fanout.max-pulled-sources} (2 here) a pulled source is pushed to that
 * person alone: its items reach their inbox through fan-out, every other follower still pulls
 * them, and the person sees each entry once either way.
 */
@WithPullThreshold
class PulledSourceCapTest {

    @Autowired Publisher publisher;
    @Autowired HomeFeed feed;
    @Autowired Subscriptions subscriptions;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;

    private long pulledSource(String prefix) {
        long source = fixtures.feed();
        fixtures.subscribe(source, fixtures.people(3));
        publisher.publish(source, List.of(entry(prefix + "0"), entry(prefix + "1"), entry(prefix + "2"), entry(prefix + "3")));
        return source;
    }

    private List<String> titles(long person, TimelineQuery query) {
        return feed.page(person, query).stream().map(TimelineEntry::item).map(item -> item.body().title()).toList();
    }

    @Test
    void aThirdPulledSourceIsPushedToThePersonAloneUntilTheyUnfollowIt() {
        long a = pulledSource("a");
        long b = pulledSource("b");
        long c = pulledSource("c");
        long reader = fixtures.person();
        long other = fixtures.person();
        subscriptions.subscribe(other, c, null);
        for (long source : List.of(a, b, c)) {
            subscriptions.subscribe(reader, source, null);
        }
        assertThat(fixtures.inbox(reader)).as("c's back-fill, pushed: the reader's pair with c is past the cap").hasSize(3);
        assertThat(fixtures.inbox(other)).as("other pulls c").isEmpty();

        List<Long> fresh = publisher.publish(c, List.of(entry("c4"))).created();
        fanout.drain();
        assertThat(fixtures.inbox(reader)).contains(fresh.getFirst()).hasSize(4);
        assertThat(fixtures.inbox(other)).isEmpty();
        assertThat(titles(reader, TimelineQuery.newest(20).withSource(c))).containsExactly("title c4", "title c3", "title c2", "title c1");
        assertThat(titles(other, TimelineQuery.newest(20).withSource(c)))
                .containsExactly("title c4", "title c3", "title c2", "title c1");
        assertThat(titles(reader, TimelineQuery.newest(50))).hasSize(3 + 3 + 4).doesNotHaveDuplicates();
        assertThat(feed.unread(reader).bySource()).isEqualTo(Map.of(a, 3L, b, 3L, c, 4L));
        assertThat(feed.unread(reader)).isEqualTo(feed.unread(reader));
        assertThat(feed.markRead(reader, fresh.getFirst())).isTrue();
        assertThat(feed.unread(reader).bySource()).isEqualTo(Map.of(a, 3L, b, 3L, c, 3L));

        subscriptions.unsubscribe(reader, c);
        publisher.publish(c, List.of(entry("c5")));
        fanout.drain();
        assertThat(fixtures.inbox(reader)).as("no longer pushed to them").hasSize(4);
    }
}
