package dev.tributary.pubsub;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.fanout.Fanout;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

@WithEmbeddedPubsub
class PublisherTest {

    @Autowired Publisher publisher;
    @Autowired Items items;
    @Autowired HomeFeed unread;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;

    @Test
    void publishingTheSameEntryAgainStoresNothingNewAndDeliversNothingNew() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));

        PublishResult first = publisher.publish(feed, List.of(entry("a"), entry("b")));
        fanout.drain();
        PublishResult again = publisher.publish(feed, List.of(entry("a"), entry("b")));
        fanout.drain();

        assertThat(first.created()).hasSize(2);
        assertThat(again).isEqualTo(new PublishResult(List.of(), List.of(), 2, first.created()));
        assertThat(fixtures.inbox(reader)).containsExactlyElementsOf(first.created());
        assertThat(unread.unread(reader).total()).isEqualTo(2);
    }

    @Test
    void aChangedEntryIsUpdatedInPlaceWithoutANewInboxEntryOrUnread() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        long id = publisher.publish(feed, List.of(entry("a"))).created().getFirst();
        fanout.drain();

        NewItem edited = new NewItem("a", "new title", "<p>new</p>", "https://example.test/a", "someone",
                MediaType.TEXT, List.of(), List.of("news"), Instant.parse("2026-11-01T00:00:00Z"));
        PublishResult result = publisher.publish(feed, List.of(edited));
        fanout.drain();

        assertThat(result).isEqualTo(new PublishResult(List.of(), List.of(id), 0, List.of(id)));
        assertThat(items.find(id).orElseThrow().body().title()).isEqualTo("new title");
        assertThat(fixtures.inbox(reader)).containsExactly(id);
        assertThat(unread.unread(reader).total()).isEqualTo(1);
        assertThat(fanout.pending()).isZero();
    }

    @Autowired ItemContents contents;

    @Test
    void theFeedsContentIsStoredOnceAndUpdatedInPlaceAndGoesWithTheTombstone() {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        NewItem plain = entry("c");
        String big = "<p>" + "long enough to be worth deflating, ".repeat(2000) + "</p>";
        NewItem withContent = withContent(plain, new ItemContent(big, false));
        long id = publisher.publish(feed, List.of(withContent)).created().getFirst();
        fanout.drain();

        PublishResult same = publisher.publish(feed, List.of(withContent));
        PublishResult edited = publisher.publish(feed, List.of(withContent(plain, new ItemContent("<p>edited</p>", true))));
        fanout.drain();

        assertThat(same.unchanged()).isEqualTo(1);
        assertThat(edited.updated()).containsExactly(id);
        assertThat(contents.find(id)).contains(new ItemContent("<p>edited</p>", true));
        assertThat(fixtures.inbox(reader)).containsExactly(id);
        assertThat(unread.unread(reader).total()).isEqualTo(1);

        PublishResult dropped = publisher.publish(feed, List.of(plain));
        assertThat(dropped.updated()).containsExactly(id);
        assertThat(contents.find(id)).isEmpty();

        publisher.publish(feed, List.of(withContent));
        assertThat(contents.findAll(List.of(id, id + 1))).containsOnlyKeys(id);
        assertThat(contents.find(id).orElseThrow().html()).isEqualTo(big);
        publisher.tombstone(id);
        assertThat(contents.find(id)).isEmpty();
    }

    private static NewItem withContent(NewItem entry, ItemContent content) {
        return new NewItem(entry.guid(), entry.title(), entry.summary(), entry.url(), entry.author(), entry.mediaType(),
                entry.media(), entry.tags(), entry.publishedAt(), content);
    }

    @Test
    void aNewDateAloneIsNoChangeAndTheFirstDateStays() {
        long feed = fixtures.feed();
        NewItem first = entry("dated", MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z"));
        long id = publisher.publish(feed, List.of(first)).created().getFirst();

        // An undated entry is dated by each fetch: that must not rewrite the item every time.
        PublishResult again = publisher.publish(feed, List.of(entry("dated", MediaType.TEXT, Instant.parse("2026-11-02T00:00:00Z"))));
        NewItem retitled = new NewItem("dated", "retitled", first.summary(), first.url(), first.author(), first.mediaType(),
                first.media(), first.tags(), Instant.parse("2026-11-03T00:00:00Z"));
        publisher.publish(feed, List.of(retitled));

        assertThat(again).isEqualTo(new PublishResult(List.of(), List.of(), 1, List.of(id)));
        assertThat(items.find(id).orElseThrow().body().title()).isEqualTo("retitled");
        assertThat(items.find(id).orElseThrow().body().publishedAt()).isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
    }

    @Test
    void duplicateGuidsInOneCallCollapseToTheLast() {
        long feed = fixtures.feed();
        NewItem first = entry("same");
        NewItem last = new NewItem("same", "the last", null, null, null, MediaType.LINK, List.of(), List.of(),
                Instant.parse("2026-11-01T00:00:00Z"));

        PublishResult result = publisher.publish(feed, List.of(first, last));

        assertThat(result.created()).hasSize(1);
        assertThat(items.find(result.created().getFirst()).orElseThrow().body().title()).isEqualTo("the last");
    }

    @Test
    void newItemsGetIdsInTheOrderOfTheirPublicationDate() {
        long feed = fixtures.feed();
        // Feeds list their newest entry first; its id must still be the highest.
        PublishResult result = publisher.publish(feed, List.of(
                entry("newest", MediaType.TEXT, Instant.parse("2026-11-03T00:00:00Z")),
                entry("oldest", MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z")),
                entry("middle", MediaType.TEXT, Instant.parse("2026-11-02T00:00:00Z"))));

        List<String> byId = items.getAll(result.created().stream().sorted().toList()).stream()
                .map(item -> item.body().guid()).toList();
        assertThat(byId).containsExactly("oldest", "middle", "newest");
    }

    @Test
    void concurrentPublishesOfTheSameEntryStoreItOnce() throws Exception {
        long feed = fixtures.feed();
        long reader = fixtures.person();
        fixtures.subscribe(feed, List.of(reader));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<PublishResult>> calls = new ArrayList<>(Collections.nCopies(8,
                    () -> publisher.publish(feed, List.of(entry("raced")))));
            List<Long> created = new ArrayList<>();
            for (Future<PublishResult> future : pool.invokeAll(calls)) {
                created.addAll(future.get().created());
            }
            fanout.drain();

            assertThat(created).hasSize(1);
            assertThat(fixtures.inbox(reader)).containsExactlyElementsOf(created);
            assertThat(unread.unread(reader).total()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTombstonedEntryIsNeverPublishedAgain() {
        long feed = fixtures.feed();
        long id = publisher.publish(feed, List.of(entry("gone"))).created().getFirst();
        fanout.drain();

        assertThat(publisher.tombstone(id)).isTrue();
        assertThat(publisher.tombstone(id)).isFalse();
        PublishResult again = publisher.publish(feed, List.of(entry("gone")));
        fanout.drain();

        assertThat(again).isEqualTo(new PublishResult(List.of(), List.of(), 1, List.of()));
        assertThat(items.find(id)).isEmpty();
        assertThat(items.ofSource(feed, null, null, 10)).isEmpty();
    }

    @Test
    void aSourceFeedPagesBackNewestFirst() {
        long feed = fixtures.feed();
        List<NewItem> entries = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            entries.add(entry("e" + i, MediaType.TEXT, Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i)));
        }
        List<Long> ids = publisher.publish(feed, entries).created();

        List<Stored<Item>> first = items.ofSource(feed, null, null, 5);
        List<Stored<Item>> second = items.ofSource(feed, first.getLast().id(), null, 5);
        List<Stored<Item>> newer = items.ofSource(feed, null, ids.get(9), 5);

        assertThat(first).extracting(Stored::id).containsExactlyElementsOf(ids.reversed().subList(0, 5));
        assertThat(second).extracting(Stored::id).containsExactlyElementsOf(ids.reversed().subList(5, 10));
        assertThat(newer).extracting(Stored::id).containsExactly(ids.get(11), ids.get(10));
    }

    @Test
    void refusesBadInput() {
        long feed = fixtures.feed();
        assertThatThrownBy(() -> publisher.publish(Long.MAX_VALUE, List.of(entry("x"))))
                .isInstanceOf(SourceNotFoundException.class);
        assertThatThrownBy(() -> publisher.publish(-1, List.of(entry("x"))))
                .isInstanceOf(SourceNotFoundException.class);
        List<NewItem> tooMany = new ArrayList<>();
        for (int i = 0; i <= Publisher.MAX_ITEMS_PER_PUBLISH; i++) {
            tooMany.add(entry("many" + i));
        }
        assertThatThrownBy(() -> publisher.publish(feed, tooMany)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> entry(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> entry("x".repeat(NewItem.MAX_GUID_LENGTH + 1))).isInstanceOf(IllegalArgumentException.class);
        List<String> tagsWithNull = new ArrayList<>(List.of("ok"));
        tagsWithNull.add(null);
        assertThatThrownBy(() -> new NewItem("n", null, null, null, null, MediaType.TEXT, null, tagsWithNull,
                Instant.parse("2026-11-01T00:00:00Z"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tags");
        assertThat(publisher.publish(feed, List.of())).isEqualTo(new PublishResult(List.of(), List.of(), 0, List.of()));
        assertThat(publisher.tombstone(feed)).as("a source id is not an item").isFalse();
        assertThat(publisher.tombstone(0)).isFalse();
    }

    @Test
    void hostileTextIsStoredAsGivenAndReadBackIntact() {
        long feed = fixtures.feed();
        String hostile = "\u0000'; DROP TABLE inbox; -- \uD83D\uDE00 <script>alert(1)</script> " + "é".repeat(5000);
        NewItem entry = new NewItem(hostile.substring(0, 100), hostile, hostile, null, hostile, MediaType.TEXT,
                List.of(new Media("https://example.test/x.jpg", "image/jpeg", 1, 2, 3L)), List.of(hostile.substring(0, 50)),
                Instant.parse("2026-11-01T00:00:00Z"));

        long id = publisher.publish(feed, List.of(entry)).created().getFirst();

        Item stored = items.find(id).orElseThrow().body();
        assertThat(stored.title()).isEqualTo(hostile);
        assertThat(stored.media()).containsExactly(new Media("https://example.test/x.jpg", "image/jpeg", 1, 2, 3L));
        assertThat(publisher.publish(feed, List.of(entry)).unchanged()).isEqualTo(1);
    }
}
