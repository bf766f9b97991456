package dev.tributary.pubsub.pull;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxSettings;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Switches;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithPullThreshold;
import dev.tributary.storage.IdGenerator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A node keeps each person's count of their pulled sources with where every source's sequence
 * stood, and the next count reads only the items numbered since: the answer is always the one a
 * count of every item would give, through publishes, tombstones, marks, several readers read
 * together and publishes that commit while the counts are read.
 */
@WithPullThreshold
class PulledCountsTest {

    @Autowired Publisher publisher;
    @Autowired Subscriptions subscriptions;
    @Autowired HomeFeed feed;
    @Autowired Fixtures fixtures;
    @Autowired PulledTable table;
    @Autowired InboxSettings horizon;
    @Autowired JdbcClient jdbc;
    @Autowired Switches switches;

    /** A source followed by enough people to be pulled, and the readers following it too. */
    private long pulledSource(long... readers) {
        long source = fixtures.feed();
        fixtures.subscribe(source, fixtures.people(3));
        for (long reader : readers) {
            subscriptions.subscribe(reader, source, null);
        }
        return source;
    }

    /** As a client that keeps counts does: the node reads the person's list of pulled sources and draws their stamps. */
    private void prime(long reader) {
        feed.unreadByFolder(reader);
        assertThat(feed.unreadVersion(reader)).isNotNull();
    }

    private List<Long> publish(long source, String... guids) {
        List<NewItem> items = new ArrayList<>();
        for (String guid : guids) {
            items.add(entry(guid, guid.startsWith("img") ? MediaType.IMAGE : MediaType.TEXT, Instant.now()));
        }
        return publisher.publish(source, items).created();
    }

    /** The person's pulled counts by source, counted over every item of the horizon (no kept count). */
    private Map<Long, Long> whole(long reader) {
        Map<Long, Long> bySource = new HashMap<>();
        table.unread(reader, IdGenerator.lowestIdAt(Instant.now().minus(horizon.keep())))
                .forEach(group -> bySource.merge(group.sourceId(), group.count(), Long::sum));
        return bySource;
    }

    private void assertExact(long reader, long total, String step) {
        Unread unread = feed.unread(reader);
        assertThat(unread.total()).as(step).isEqualTo(total);
        assertThat(unread.bySource()).as(step + ": as a count of every item").isEqualTo(whole(reader));
    }

    @Test
    void aKeptCountReadsOnlyTheItemsNumberedSinceIt() {
        long reader = fixtures.person();
        long source = pulledSource(reader);
        List<Long> first = publish(source, "k-1", "k-2", "k-3");
        prime(reader);
        assertThat(feed.unread(reader).total()).isEqualTo(3);

        List<Long> next = publish(source, "k-4", "k-5");
        // Behind the node's back, one new item numbered as if stored before items were numbered:
        // a count brought up to date from the sequence does not see it, a whole count would.
        jdbc.sql("UPDATE pulled_items SET seq = 0 WHERE source_id = ? AND item_id = ?").params(source, next.getFirst()).update();
        assertThat(feed.unread(reader).total()).as("only the item numbered since the kept count is read").isEqualTo(4);
        assertThat(feed.unread(reader).total()).as("and kept so").isEqualTo(4);

        assertThat(feed.markRead(reader, first.getFirst())).isTrue();
        assertThat(feed.unread(reader).total()).as("a mark moves the reader's version: counted whole again").isEqualTo(4);
        assertThat(whole(reader)).isEqualTo(Map.of(source, 4L));
    }

    @Test
    void withThePageCacheSwitchedOffNothingIsKept() {
        long reader = fixtures.person();
        long source = pulledSource(reader);
        publish(source, "o-1", "o-2");
        prime(reader);
        assertThat(feed.unread(reader).total()).isEqualTo(2);
        List<Long> next = publish(source, "o-3");
        jdbc.sql("UPDATE pulled_items SET seq = 0 WHERE source_id = ? AND item_id = ?").params(source, next.getFirst()).update();
        try {
            switches.set(Feature.PAGE_CACHE, false);
            assertThat(feed.unread(reader).total()).as("counted whole").isEqualTo(3);
        } finally {
            switches.set(Feature.PAGE_CACHE, true);
        }
        publish(source, "o-4");
        assertThat(feed.unread(reader).total()).as("switched on again: what was kept before is gone").isEqualTo(4);
    }

    @Test
    void everyChangeLeavesTheCountAsACountOfEveryItemWouldGiveIt() {
        long early = fixtures.person();
        long late = fixtures.person();
        long news = pulledSource(early, late);
        long photos = pulledSource(early, late);
        List<Long> n = new ArrayList<>(publish(news, "n-1", "n-2", "n-3", "img-n-4"));
        List<Long> p = new ArrayList<>(publish(photos, "img-p-1", "img-p-2"));
        prime(early);
        assertExact(early, 6, "first count");

        n.addAll(publish(news, "n-5"));
        assertExact(early, 7, "a publish");
        prime(late);
        assertExact(late, 7, "another reader, kept from a later sequence");

        p.addAll(publish(photos, "img-p-3", "p-4"));
        Map<Long, HomeFeed.UnreadByFolder> together = feed.unreadByFolder(List.of(early, late));
        assertThat(together.get(early).unread().total()).as("read together from different sequences").isEqualTo(9);
        assertThat(together.get(late).unread().total()).isEqualTo(9);

        assertThat(publisher.tombstone(n.get(1))).isTrue();
        assertExact(early, 8, "a counted item tombstoned");
        assertExact(late, 8, "a counted item tombstoned, the other reader");

        assertThat(feed.markRead(early, n.get(2))).isTrue();
        assertExact(early, 7, "one item read");
        assertExact(late, 8, "someone else's mark");

        n.addAll(publish(news, "n-6", "n-7"));
        assertExact(early, 9, "a publish after a mark");

        assertThat(feed.markReadUpTo(early, n.get(4), news)).isPositive();
        assertExact(early, 2 + 4, "read up to n-5: n-6, n-7 and the photos left");

        assertThat(feed.markUnread(early, n.getFirst())).isTrue();
        assertExact(early, 7, "one item unread again");

        p.addAll(publish(photos, "p-5"));
        assertThat(publisher.tombstone(p.getLast())).isTrue();
        assertThat(publisher.tombstone(n.getLast())).isTrue();
        assertExact(early, 6, "a publish and two tombstones in two sources since the last count");
        assertExact(late, 9, "the other reader after the same");
    }

    /** Totals by person, counted by a node's kept counts that read at most {@code maxRanges} ranges a statement. */
    private static Map<Long, Long> totals(PulledCounts counts, Map<Long, PulledCounts.Known> people) {
        Map<Long, Long> totals = new HashMap<>();
        counts.unread(people, IdGenerator.lowestIdAt(Instant.now().minus(Duration.ofDays(1))), oldest -> false)
                .forEach((person, groups) -> totals.put(person, groups.stream().mapToLong(PulledTable.UnreadGroup::count).sum()));
        return totals;
    }

    @Test
    void peopleWhoseRangesExceedOneStatementAreCountedInSeveralAndThoseWithTooManySourcesWhole() {
        List<Long> readers = fixtures.people(3);
        long[] readerIds = readers.stream().mapToLong(Long::longValue).toArray();
        long news = pulledSource(readerIds);
        long photos = pulledSource(readerIds);
        publish(news, "r-1");
        publish(photos, "r-2");
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PulledCounts counts = new PulledCounts(table, 2, registry);
        Map<Long, PulledCounts.Known> people = new HashMap<>();
        for (int i = 0; i < readers.size(); i++) {
            long reader = readers.get(i);
            people.put(reader, new PulledCounts.Known(List.of(news, photos), "v" + reader));
            assertThat(totals(counts, Map.of(reader, people.get(reader)))).containsEntry(reader, 2L + 2L * i);
            publish(news, "r-n-" + i); // each reader kept at a different sequence of both sources: 6 ranges
            publish(photos, "r-p-" + i);
        }
        Map<Long, Long> together = totals(counts, people);
        assertThat(together).as("three statements of two ranges each").isEqualTo(Map.of(
                readers.get(0), 8L, readers.get(1), 8L, readers.get(2), 8L));
        assertThat(registry.get("tributary.unread.pulled").tag("way", "whole").counter().count()).as("each reader's first").isEqualTo(3);
        assertThat(registry.get("tributary.unread.pulled").tag("way", "brought-up").counter().count()).isEqualTo(3);

        List<Long> next = publish(news, "r-x");
        jdbc.sql("UPDATE pulled_items SET seq = 0 WHERE source_id = ? AND item_id = ?").params(news, next.getFirst()).update();
        assertThat(totals(counts, people)).as("kept counts: the renumbered item unseen").containsEntry(readers.get(0), 8L);
        assertThat(totals(new PulledCounts(table, 1, new SimpleMeterRegistry()), people)).as("more sources than ranges a statement: counted whole")
                .containsEntry(readers.get(0), 9L);
    }

    @Test
    void countsReadWhilePublishesCommitNeverMissOrDoubleAnItem() throws Exception {
        long reader = fixtures.person();
        long source = pulledSource(reader);
        publish(source, "c-0");
        prime(reader);
        int publishes = 40;
        CompletableFuture<List<Long>> publishing = CompletableFuture.supplyAsync(() -> {
            List<Long> ids = new ArrayList<>();
            for (int i = 1; i <= publishes; i++) {
                ids.addAll(publish(source, "c-" + i));
                if (i % 10 == 0) {
                    assertThat(publisher.tombstone(ids.removeFirst())).isTrue();
                }
            }
            return ids;
        });
        long last = 0;
        List<Long> seen = new ArrayList<>();
        while (!publishing.isDone()) {
            long total = feed.unread(reader).total();
            assertThat(total).as("never more than were published").isBetween(1L, 1L + publishes);
            seen.add(total);
            last = total;
        }
        List<Long> live = publishing.get(30, TimeUnit.SECONDS);
        assertThat(live).hasSize(publishes - 4);
        assertExact(reader, 1 + live.size(), "after every publish and tombstone (" + seen.size() + " counts read meanwhile, last " + last + ")");
    }
}
