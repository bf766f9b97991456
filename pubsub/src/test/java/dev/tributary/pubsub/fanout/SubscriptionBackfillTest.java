package dev.tributary.pubsub.fanout;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.PublishResult;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** A new subscriber gets the source's current items (back-fill of 3 in these tests). */
@WithEmbeddedPubsub
class SubscriptionBackfillTest {

    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired Sources sources;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;

    private List<Long> timeline(long person) {
        return home.page(person, TimelineQuery.newest(50)).stream().map(TimelineEntry::id).toList();
    }

    private static List<NewItem> document(String... guids) {
        List<NewItem> entries = new ArrayList<>();
        for (int i = 0; i < guids.length; i++) {
            entries.add(entry(guids[i], MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)));
        }
        return entries;
    }

    /** Publishes a fetched document as the crawler's ingest does: its entries, then what it carried. */
    private PublishResult fetched(long feed, NewItem... entries) {
        PublishResult result = publisher.publish(feed, List.of(entries));
        publisher.documentCarried(feed, result.carried());
        fanout.drain();
        return result;
    }

    @Test
    void aLateSubscriberGetsWhatTheLatestDocumentCarriedAndCountsAsAnEarlyOne() {
        long feed = fixtures.feed();
        long early = fixtures.person();
        fixtures.subscribe(feed, List.of(early));
        List<NewItem> first = document("a", "b", "c", "d");
        List<Long> ids = fetched(feed, first.toArray(NewItem[]::new)).created();
        // The next fetch: "a" and "b" scrolled off, "c" unchanged, "d" edited, "e" new.
        NewItem edited = new NewItem("d", "new title", null, null, null, MediaType.TEXT, List.of(), List.of(), first.get(3).publishedAt());
        long e = fetched(feed, first.get(2), edited, entry("e", MediaType.TEXT, Instant.parse("2026-11-02T00:00:00Z"))).created().getFirst();
        home.markRead(early, ids.get(0));
        home.markRead(early, ids.get(1));

        long late = fixtures.person();
        subscriptions.subscribe(late, feed, null);

        assertThat(timeline(late)).containsExactly(e, ids.get(3), ids.get(2));
        assertThat(home.unread(late)).isEqualTo(home.unread(early)).isEqualTo(fixtures.truth(late));
        assertThat(home.unread(late).bySource()).isEqualTo(Map.of(feed, 3L));
    }

    @Test
    void refollowingDoesNotMakeReadItemsUnreadAgain() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        List<Long> ids = fetched(feed, document("r1", "r2", "r3").toArray(NewItem[]::new)).created();
        subscriptions.subscribe(reader, feed, null);
        assertThat(home.unread(reader).total()).isEqualTo(3);
        home.markRead(reader, ids.get(0));
        home.markRead(reader, ids.get(2));

        subscriptions.unsubscribe(reader, feed);
        // Unsubscribing marked the unread one read (issue 45); refollowing leaves every flag as it is.
        subscriptions.subscribe(reader, feed, null);

        assertThat(home.page(reader, TimelineQuery.newest(10))).extracting(TimelineEntry::read).containsExactly(true, true, true);
        assertThat(home.unread(reader).total()).isZero();
        assertThat(home.unread(reader)).isEqualTo(fixtures.truth(reader));
    }

    @Test
    void aPersonsFollowerGetsTheirNewestPostsEvenPastTheFeedBackfill() {
        long author = fixtures.person();
        long source = sources.ofUser(author).id();
        List<Long> posts = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            posts.add(publisher.publish(source, List.of(entry("post" + i))).created().getFirst());
        }
        long follower = fixtures.person();
        subscriptions.subscribe(follower, source, null);

        assertThat(timeline(follower)).hasSize(SubscriptionBackfill.OWNED_SOURCE_ITEMS)
                .containsExactlyElementsOf(posts.reversed().subList(0, SubscriptionBackfill.OWNED_SOURCE_ITEMS));
        assertThat(home.unread(follower).total()).isEqualTo(SubscriptionBackfill.OWNED_SOURCE_ITEMS);
    }
}
