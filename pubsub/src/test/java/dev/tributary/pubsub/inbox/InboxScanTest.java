package dev.tributary.pubsub.inbox;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxScan;
import dev.tributary.pubsub.InboxScan.Reads;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import dev.tributary.storage.IdGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Sync APIs' walks over a whole inbox by id, and marking many entries at once, with exact counts. */
@WithEmbeddedPubsub
class InboxScanTest {

    @Autowired Publisher publisher;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;

    @Test
    void aScanSelectsByReadStateSourceAndTimeAndResumesAfterTheLastId() {
        long news = fixtures.feed();
        long blogs = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(news, List.of(reader));
        fixtures.subscribe(blogs, List.of(reader));
        List<Long> fromNews = publisher.publish(news, List.of(entry("n1"), entry("n2"), entry("n3"))).created();
        List<Long> fromBlogs = publisher.publish(blogs, List.of(entry("b1"), entry("b2"))).created();
        fanout.drain();
        List<Long> all = new ArrayList<>(fromNews);
        all.addAll(fromBlogs);
        all.sort(Comparator.reverseOrder());
        home.markRead(reader, fromNews.get(0));

        assertThat(home.ids(reader, scan(Reads.ANY, null, null, 100))).containsExactlyElementsOf(all);
        assertThat(home.ids(reader, scan(Reads.UNREAD, null, null, 100))).doesNotContain(fromNews.get(0)).hasSize(4);
        assertThat(home.ids(reader, scan(Reads.READ, null, null, 100))).containsExactly(fromNews.get(0));
        assertThat(home.ids(reader, scan(Reads.ANY, Set.of(blogs), null, 100)))
                .containsExactlyElementsOf(fromBlogs.reversed());
        assertThat(home.ids(reader, scan(Reads.ANY, Set.of(), null, 100))).as("an empty folder").isEmpty();
        assertThat(home.ids(fixtures.person(), scan(Reads.ANY, null, null, 100))).as("another person").isEmpty();

        List<Long> walked = new ArrayList<>();
        Long after = null;
        for (int page = 0; page < 10; page++) {
            List<Long> ids = home.ids(reader, scan(Reads.ANY, null, after, 2));
            walked.addAll(ids);
            if (ids.size() < 2) {
                break;
            }
            after = ids.getLast();
        }
        assertThat(walked).containsExactlyElementsOf(all);
        List<Long> oldestFirst = home.ids(reader, new InboxScan(Reads.ANY, null, null, null, all.get(3), true, 100));
        assertThat(oldestFirst).containsExactly(all.get(2), all.get(1), all.get(0));

        Instant middle = IdGenerator.timestampOf(all.get(2));
        long bound = IdGenerator.lowestIdAt(middle);
        assertThat(home.ids(reader, new InboxScan(Reads.ANY, null, middle, null, null, false, 100)))
                .containsExactlyElementsOf(all.stream().filter(id -> id >= bound).toList()).contains(all.get(2));
        assertThat(home.ids(reader, new InboxScan(Reads.ANY, null, null, middle, null, false, 100)))
                .containsExactlyElementsOf(all.stream().filter(id -> id < bound).toList()).doesNotContain(all.get(2));
        assertThat(home.ids(reader, new InboxScan(Reads.ANY, null, Instant.now().plusSeconds(60), null, null, false, 10)))
                .isEmpty();
        assertThatThrownBy(() -> scan(Reads.ANY, null, null, InboxScan.MAX_LIMIT + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(home.heldAmong(reader, List.of(fromNews.get(1), Long.MAX_VALUE))).containsExactly(fromNews.get(1));
    }

    @Test
    void markingManyAtOnceFlipsOnlyThePersonsOwnEntriesAndKeepsCountsExact() {
        long news = fixtures.feed();
        long reader = fixtures.person();
        long other = fixtures.person();
        fixtures.subscribe(news, List.of(reader, other));
        List<Long> ids = publisher.publish(news, List.of(entry("m1"), entry("m2"), entry("m3"), entry("m4"))).created();
        fanout.drain();
        home.markRead(reader, ids.get(0));

        assertThat(home.markRead(reader, List.of(ids.get(0), ids.get(1), ids.get(2), Long.MAX_VALUE))).isEqualTo(2);
        assertThat(home.unread(reader).total()).isEqualTo(1);
        assertThat(home.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(home.unread(other).total()).as("another reader of the same items").isEqualTo(4);

        assertThat(home.markUnread(reader, List.of(ids.get(1), ids.get(3)))).isEqualTo(1);
        assertThat(home.unread(reader).total()).isEqualTo(2);
        assertThat(home.unread(reader)).isEqualTo(fixtures.truth(reader));
        assertThat(home.markRead(reader, List.of())).isZero();
        List<Long> tooMany = LongStream.range(0, HomeFeed.MAX_MARKS + 1).boxed().toList();
        assertThatThrownBy(() -> home.markRead(reader, tooMany)).isInstanceOf(IllegalArgumentException.class);
        assertThat(home.unread(reader)).isEqualTo(fixtures.truth(reader));
    }

    private static InboxScan scan(Reads reads, Set<Long> sources, Long after, int limit) {
        return new InboxScan(reads, sources, null, null, after, false, limit);
    }
}
