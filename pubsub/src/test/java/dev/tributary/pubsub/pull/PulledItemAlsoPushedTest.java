package dev.tributary.pubsub.pull;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.inbox.InboxRow;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithPullThreshold;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A pulled item that also reached the person's inbox (a relay pushes it to them) is one entry, and
 * a page cut that it falls into still holds {@code limit} distinct entries: the pulled read cannot
 * let the inbox's copy take a later item's place.
 */
@WithPullThreshold
class PulledItemAlsoPushedTest {

    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired HomeFeed feed;
    @Autowired Inbox inbox;
    @Autowired Fixtures fixtures;
    @Autowired Sources sources;
    @Autowired Fanout fanout;

    @Test
    void everyPageHoldsEachItemOnceAndIsFull() {
        long source = fixtures.feed();
        fixtures.subscribe(source, fixtures.people(3));
        long reader = fixtures.person();
        subscriptions.subscribe(reader, source, null);
        List<NewItem> entries = IntStream.range(0, 12).mapToObj(i -> entry("also-" + i)).toList();
        List<Long> ids = new ArrayList<>(publisher.publish(source, entries).created());
        ids.sort(Comparator.reverseOrder());
        // The newest two reach the reader's inbox as well, through a profile that relays them.
        long relay = fixtures.feed();
        inbox.deliverNewItems(List.of(new InboxRow(reader, ids.get(0), relay, MediaType.TEXT, false),
                new InboxRow(reader, ids.get(1), relay, MediaType.TEXT, false)), false);

        assertThat(page(reader, TimelineQuery.newest(5))).containsExactlyElementsOf(ids.subList(0, 5));
        assertThat(page(reader, TimelineQuery.newest(5).olderThan(ids.get(4)))).containsExactlyElementsOf(ids.subList(5, 10));
        assertThat(page(reader, TimelineQuery.newest(50))).containsExactlyElementsOf(ids);
        assertThat(feed.unread(reader).total()).isEqualTo(ids.size());
        assertThat(page(reader, TimelineQuery.newest(5).withSource(source)))
                .as("the source's own page: the relayed two are the relay's entries, and the page is still full")
                .containsExactlyElementsOf(ids.subList(2, 7));
    }

    @Test
    void aPulledItemReadBeforeARelayPushesItStaysRead() {
        long source = fixtures.feed();
        fixtures.subscribe(source, fixtures.people(3));
        long reader = fixtures.person();
        subscriptions.subscribe(reader, source, null);
        long owner = fixtures.person();
        sources.attach(owner, source);
        subscriptions.subscribe(reader, sources.ofUser(owner).id(), null);
        fanout.drain();
        List<Long> ids = publisher.publish(source, List.of(entry("relayed-1"), entry("relayed-2"))).created();

        // The reader reads one while it is a pulled entry, before the relay's fan-out reaches them.
        assertThat(feed.markRead(reader, ids.get(0))).isTrue();
        fanout.drain();

        assertThat(fixtures.inbox(reader)).as("the relay pushed both").containsAll(ids);
        assertThat(feed.readStates(reader, ids)).isEqualTo(Map.of(ids.get(0), true, ids.get(1), false));
        assertThat(feed.unread(reader).total()).isEqualTo(1);
        assertThat(feed.unread(reader)).isEqualTo(fixtures.truth(reader));
    }

    private List<Long> page(long person, TimelineQuery query) {
        return feed.page(person, query).stream().map(TimelineEntry::id).toList();
    }
}
