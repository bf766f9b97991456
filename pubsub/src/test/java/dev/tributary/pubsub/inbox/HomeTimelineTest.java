package dev.tributary.pubsub.inbox;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static dev.tributary.pubsub.testing.Fixtures.tagged;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

@WithEmbeddedPubsub
class HomeTimelineTest {

    @Autowired Publisher publisher;
    @Autowired HomeFeed timeline;
    @Autowired HomeFeed readState;
    @Autowired Subscriptions subscriptions;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired HomeFeed unread;

    long feed;
    long reader;
    /** Oldest first. */
    List<Long> ids;

    @BeforeEach
    void fortyEntries() {
        feed = fixtures.feed();
        reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        List<NewItem> entries = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            entries.add(entry("t" + i, i % 4 == 0 ? MediaType.IMAGE : MediaType.TEXT,
                    Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)));
        }
        ids = publisher.publish(feed, entries).created();
        fanout.drain();
    }

    private List<Long> page(TimelineQuery query) {
        return timeline.page(reader, query).stream().map(TimelineEntry::id).toList();
    }

    /** The newest {@code count} ids from position {@code newestIndex} down. */
    private List<Long> newestFrom(int newestIndex, int count) {
        List<Long> result = new ArrayList<>();
        for (int i = newestIndex; i > newestIndex - count && i >= 0; i--) {
            result.add(ids.get(i));
        }
        return result;
    }

    @Test
    void servesOnlyTheNewestWindowEvenBeforeTrimming() {
        // 40 entries, window of 30: the ten oldest are not trimmed yet but never show.
        List<Long> all = page(new TimelineQuery(null, null, null, 100, null, null, null, false));
        assertThat(all).containsExactlyElementsOf(newestFrom(39, 30));
    }

    @Test
    void unreadAndSourcePagesReachTheWholeHorizonPagedByMaxId() {
        readState.markRead(reader, ids.get(39));
        readState.markRead(reader, ids.get(2));

        List<Long> unreadFirst = page(TimelineQuery.newest(30).unread());
        List<Long> unreadRest = page(TimelineQuery.newest(30).unread().olderThan(unreadFirst.getLast()));
        List<Long> ofSource = new ArrayList<>(page(TimelineQuery.newest(25).withSource(feed)));
        ofSource.addAll(page(TimelineQuery.newest(25).withSource(feed).olderThan(ofSource.getLast())));

        List<Long> expectedUnread = new ArrayList<>(newestFrom(38, 39));
        expectedUnread.remove(ids.get(2));
        assertThat(unreadFirst).containsExactlyElementsOf(expectedUnread.subList(0, 30));
        assertThat(unreadRest).as("below the window of 30").containsExactlyElementsOf(expectedUnread.subList(30, 38));
        assertThat(ofSource).containsExactlyElementsOf(newestFrom(39, 40));
        assertThat(page(TimelineQuery.newest(10).withSource(feed).withMedia(Set.of(MediaType.IMAGE)).olderThan(ids.get(10))))
                .containsExactly(ids.get(8), ids.get(4), ids.get(0));
        assertThat(unread.unread(reader).total()).isEqualTo(38).isEqualTo(unreadFirst.size() + unreadRest.size());
    }

    @Test
    void pagesWithMaxIdSinceIdAndMinId() {
        List<Long> first = page(TimelineQuery.newest(10));
        List<Long> second = page(TimelineQuery.newest(10).olderThan(first.getLast()));
        List<Long> sinceOld = page(new TimelineQuery(null, ids.get(30), null, 3, null, null, null, false));
        List<Long> justNewer = page(new TimelineQuery(null, null, ids.get(30), 3, null, null, null, false));

        assertThat(first).containsExactlyElementsOf(newestFrom(39, 10));
        assertThat(second).containsExactlyElementsOf(newestFrom(29, 10));
        assertThat(sinceOld).as("since_id: the newest above it").containsExactly(ids.get(39), ids.get(38), ids.get(37));
        assertThat(justNewer).as("min_id: right above it, newest first").containsExactly(ids.get(33), ids.get(32), ids.get(31));
        assertThat(page(TimelineQuery.newest(10).olderThan(ids.get(10)))).as("below the window").isEmpty();
    }

    @Test
    void filtersByMediaSourceAndUnread() {
        long other = fixtures.feed();
        subscriptions.subscribe(reader, other, null);
        long fromOther = publisher.publish(other, List.of(entry("other"))).created().getFirst();
        fanout.drain();
        readState.markRead(reader, ids.get(39));
        readState.markRead(reader, ids.get(38));

        assertThat(page(TimelineQuery.newest(5).withMedia(Set.of(MediaType.IMAGE))))
                .containsExactly(ids.get(36), ids.get(32), ids.get(28), ids.get(24), ids.get(20));
        assertThat(page(TimelineQuery.newest(5).withSource(other))).containsExactly(fromOther);
        assertThat(page(TimelineQuery.newest(3).unread())).containsExactly(fromOther, ids.get(37), ids.get(36));
        assertThat(timeline.page(reader, TimelineQuery.newest(3)))
                .extracting(TimelineEntry::read).containsExactly(false, true, true);
        assertThat(page(TimelineQuery.newest(5).withMedia(Set.of(MediaType.VIDEO)))).isEmpty();
    }

    @Test
    void filtersByTagIgnoringCase() {
        long tags = fixtures.feed();
        subscriptions.subscribe(reader, tags, null);
        List<Long> tagged = publisher.publish(tags, List.of(tagged("x1", "Java"), tagged("x2", "rust"), tagged("x3", "java", "go")))
                .created();
        fanout.drain();

        assertThat(page(TimelineQuery.newest(10).withTag("java"))).containsExactlyInAnyOrder(tagged.get(0), tagged.get(2));
        assertThat(page(TimelineQuery.newest(10).withTag("cobol"))).isEmpty();
    }

    @Test
    void aTombstonedItemDisappearsAtOnceAndThePageIsRefilled() {
        publisher.tombstone(ids.get(39));
        publisher.tombstone(ids.get(37));
        // No fan-out run: the retraction has not happened yet, the timeline already hides them.

        assertThat(page(TimelineQuery.newest(3))).containsExactly(ids.get(38), ids.get(36), ids.get(35));
        fanout.drain();
        assertThat(page(TimelineQuery.newest(3))).containsExactly(ids.get(38), ids.get(36), ids.get(35));
    }

    @Test
    void unsubscribingKeepsHistoryAndANewSubscriberGetsOnlyTheLatestFew() {
        long late = fixtures.person();
        long imagesOnly = fixtures.person();
        subscriptions.subscribe(imagesOnly, feed, Set.of(MediaType.IMAGE));
        subscriptions.unsubscribe(reader, feed);
        subscriptions.subscribe(late, feed, null);
        long newer = publisher.publish(feed, List.of(entry("after"))).created().getFirst();
        fanout.drain();

        assertThat(page(TimelineQuery.newest(1))).containsExactly(ids.get(39));
        // Back-fill of 3 in these tests: the latest three at subscription time, then what came after.
        assertThat(timeline.page(late, TimelineQuery.newest(10))).extracting(TimelineEntry::id)
                .containsExactly(newer, ids.get(39), ids.get(38), ids.get(37));
        assertThat(timeline.page(late, TimelineQuery.newest(10)))
                .extracting(TimelineEntry::read).containsOnly(false);
        assertThat(timeline.page(imagesOnly, TimelineQuery.newest(10))).as("back-fill honours the media filter")
                .extracting(TimelineEntry::id).containsExactly(ids.get(36), ids.get(32), ids.get(28));
        assertThat(unread.unread(late)).isEqualTo(fixtures.truth(late));
        assertThat(unread.unread(late).total()).isEqualTo(4);
    }

    @Test
    void anEmptyOrUnknownInboxIsAnEmptyPage() {
        assertThat(timeline.page(fixtures.person(), TimelineQuery.newest(20))).isEmpty();
        assertThat(timeline.page(-1, TimelineQuery.newest(20))).isEmpty();
    }

    @Test
    void refusesLimitsOutsideTheRange() {
        assertThatThrownBy(() -> TimelineQuery.newest(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TimelineQuery.newest(TimelineQuery.MAX_LIMIT + 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
