package dev.tributary.pubsub.pull;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithPullThreshold;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A kept newest page is brought up to date from the node's heads when only pulled sources moved:
 * the entries the heads give are those a MySQL read gives (filters, read positions, newest first,
 * cut to the limit), and the stamps tell apart a source's move from the person's own.
 */
@WithPullThreshold
class NewestPulledTest {

    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired Fixtures fixtures;
    @Autowired HomeFeed feed;

    private long pulledSource() {
        long source = fixtures.feed();
        fixtures.subscribe(source, fixtures.people(3));
        return source;
    }

    private List<Long> publish(long source, MediaType... media) {
        List<Long> ids = new ArrayList<>();
        for (MediaType type : media) {
            ids.addAll(publisher.publish(source, List.of(entry("n" + System.nanoTime(), type, Instant.now()))).created());
        }
        return ids;
    }

    /** What MySQL gives (the person has no inbox entries and no marks on single items). */
    private List<HomeFeed.PulledEntry> fromMySql(long person, int limit) {
        return feed.page(person, TimelineQuery.newest(limit)).stream()
                .map((TimelineEntry entry) -> new HomeFeed.PulledEntry(entry.id(), entry.read())).toList();
    }

    /** The heads' answer; the first call after the node read the person's list of pulled sources may not tell. */
    private List<HomeFeed.PulledEntry> fromHeads(long person, int limit) {
        List<HomeFeed.PulledEntry> entries = feed.newestPulled(person, limit, feed.stamps(person, List.of()));
        return entries != null ? entries
                : java.util.Objects.requireNonNull(feed.newestPulled(person, limit, feed.stamps(person, List.of())));
    }

    @Test
    void theHeadsGiveWhatMySqlGivesUnderFiltersAndReadPositions() {
        long a = pulledSource();
        long b = pulledSource();
        long reader = fixtures.person();
        subscriptions.subscribe(reader, a, Set.of(MediaType.TEXT));
        subscriptions.subscribe(reader, b, null);
        List<Long> ofA = publish(a, MediaType.TEXT, MediaType.IMAGE, MediaType.TEXT);
        publish(b, MediaType.LINK, MediaType.TEXT);
        feed.markReadUpTo(reader, ofA.get(1), a);
        publish(a, MediaType.TEXT);

        assertThat(fromHeads(reader, 4)).isEqualTo(fromMySql(reader, 4)).hasSize(4);
        assertThat(fromHeads(reader, 20)).isEqualTo(fromMySql(reader, 20)).hasSize(5)
                .contains(new HomeFeed.PulledEntry(ofA.get(0), true)).doesNotContain(new HomeFeed.PulledEntry(ofA.get(1), true));

        long later = publish(b, MediaType.IMAGE).getFirst();
        assertThat(fromHeads(reader, 4)).first().isEqualTo(new HomeFeed.PulledEntry(later, false));
        assertThat(fromHeads(reader, 4)).isEqualTo(fromMySql(reader, 4));
    }

    @Test
    void aPublishMovesASourcesStampAndThePersonsFiltersAndReadPositionsMoveTheirOwn() {
        long a = pulledSource();
        long reader = fixtures.person();
        subscriptions.subscribe(reader, a, null);
        long first = publish(a, MediaType.TEXT).getFirst();
        TimelineStamps before = feed.stamps(reader, List.of());

        publish(a, MediaType.TEXT);
        TimelineStamps afterPublish = feed.stamps(reader, List.of());
        assertThat(afterPublish.own()).isEqualTo(before.own());
        assertThat(afterPublish.sources().get(a)).isNotEqualTo(before.sources().get(a));
        assertThat(afterPublish.person()).isNotEqualTo(before.person());

        subscriptions.subscribe(reader, a, Set.of(MediaType.IMAGE));
        TimelineStamps afterFilter = feed.stamps(reader, List.of());
        assertThat(afterFilter.own()).as("a filter applies at read time").isNotEqualTo(afterPublish.own());
        assertThat(afterFilter.person()).isNotEqualTo(afterPublish.person());

        feed.markReadUpTo(reader, first - 1, a); // moves the position over nothing: no entry changes
        assertThat(feed.stamps(reader, List.of()).own()).as("a read position").isNotEqualTo(afterFilter.own());
    }
}
