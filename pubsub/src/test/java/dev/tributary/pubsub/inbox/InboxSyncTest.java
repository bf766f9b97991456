package dev.tributary.pubsub.inbox;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** What sync APIs (Fever) read of an inbox: pages by id both ways, entries by id, unread ids, marking by time. */
@WithEmbeddedPubsub
class InboxSyncTest {

    private static final Instant DAY = Instant.parse("2026-11-01T00:00:00Z");

    @Autowired Publisher publisher;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;

    @Test
    void pagesTheWholeInboxByIdBothWaysAndListsUnreadIds() {
        long news = fixtures.feed();
        long blogs = fixtures.feed();
        long reader = fixtures.person();
        long other = fixtures.person();
        fixtures.subscribe(news, List.of(reader));
        fixtures.subscribe(blogs, List.of(reader, other));
        List<Long> fromNews = publisher.publish(news, List.of(entry("s1", MediaType.TEXT, DAY),
                entry("s2", MediaType.TEXT, DAY.plusSeconds(10)), entry("s3", MediaType.TEXT, DAY.plusSeconds(20)))).created();
        List<Long> fromBlogs = publisher.publish(blogs, List.of(entry("s4", MediaType.TEXT, DAY.plusSeconds(30)))).created();
        fanout.drain();
        List<Long> all = List.of(fromNews.get(0), fromNews.get(1), fromNews.get(2), fromBlogs.get(0));

        assertThat(ids(home.inboxPage(reader, 0L, null, 2))).containsExactlyElementsOf(all.subList(0, 2));
        assertThat(ids(home.inboxPage(reader, all.get(1), null, 2))).containsExactlyElementsOf(all.subList(2, 4));
        assertThat(home.inboxPage(reader, all.get(3), null, 2)).isEmpty();
        assertThat(ids(home.inboxPage(reader, null, null, 3))).containsExactlyElementsOf(all.reversed().subList(0, 3));
        assertThat(ids(home.inboxPage(reader, null, all.get(1), 50))).containsExactly(all.get(0));
        assertThat(home.inboxSize(reader)).isEqualTo(4);

        assertThat(ids(home.inboxEntries(other, all))).as("only their own entries").containsExactly(fromBlogs.get(0));
        assertThat(ids(home.inboxEntries(reader, List.of(all.get(2), 777L)))).containsExactly(all.get(2));

        home.markRead(reader, all.get(1));
        assertThat(home.unreadIds(reader)).containsExactly(all.get(3), all.get(2), all.get(0));
        assertThat(home.inboxPage(reader, 0L, null, 50).stream().filter(TimelineEntry::read).map(TimelineEntry::id))
                .containsExactly(all.get(1));

        // Ids date from receipt: nothing was received before the test began.
        assertThat(home.markReadBefore(reader, Instant.now().minusSeconds(3600), null)).isZero();
        assertThat(home.markReadBefore(reader, Instant.now(), news)).as("s1 and s3; s2 was read").isEqualTo(2);
        assertThat(home.unreadIds(reader)).containsExactly(all.get(3));
        assertThat(home.markReadBefore(reader, Instant.now(), null)).isEqualTo(1);
        assertThat(home.unreadIds(reader)).isEmpty();
        assertThat(home.unreadIds(other)).containsExactly(fromBlogs.get(0));
    }

    private static List<Long> ids(List<TimelineEntry> entries) {
        return entries.stream().map(TimelineEntry::id).toList();
    }
}
