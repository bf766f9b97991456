package dev.tributary.pubsub.fanout;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.PublishResult;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

@WithEmbeddedPubsub
class FanoutTest {

    @Autowired Publisher publisher;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired HomeFeed unread;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;

    @Test
    void deliversANewItemToEverySubscriberAcrossBatches() {
        long feed = fixtures.feed();
        List<Long> people = fixtures.people(23); // batches of 7: four batches, the last short
        fixtures.subscribe(feed, people);

        PublishResult result = publisher.publish(feed, List.of(entry("a")));
        fanout.drain();

        long item = result.created().getFirst();
        for (long person : people) {
            assertThat(fixtures.inbox(person)).containsExactly(item);
            assertThat(unread.unread(person)).isEqualTo(new Unread(1, Map.of(feed, 1L), Map.of(MediaType.TEXT, 1L)));
        }
        assertThat(fanout.pending()).isZero();
    }

    @Test
    void whenATaskOfManyBatchesEndsEveryReadersKeptPageIsVoid() {
        long feed = fixtures.feed();
        List<Long> people = fixtures.people(30); // three ranges of 10, each two batches: the first moves stamps off the worker
        fixtures.subscribe(feed, people);
        Map<Long, String> before = new java.util.HashMap<>();
        people.forEach(person -> before.put(person, unread.stamps(person, List.of()).person()));
        long item = publisher.publish(feed, List.of(entry("stamped"))).created().getFirst();

        FanoutTask task = fanout.claim(10).stream().filter(t -> t.itemId() == item).findFirst().orElseThrow();
        long cursor = task.cursorUser();
        while (cursor != FanoutTask.DONE) {
            FanoutWorker.Batch batch = fanout.batch(task);
            task = task.advancedTo(batch.cursor()).endingAt(batch.endUser());
            cursor = batch.cursor();
        }
        fanout.drain(); // the ranges split off at the first batch (split-size 10), batch by batch as well

        for (long person : people) {
            assertThat(unread.stamps(person, List.of()).person()).as("person %d", person).isNotEqualTo(before.get(person));
        }
    }

    @Test
    void theItemsOfOnePublishRunTogetherEachToThePeopleWhoseMediaFilterTakesIt() {
        long feed = fixtures.feed();
        List<Long> everything = fixtures.people(9);
        fixtures.subscribe(feed, everything);
        long imagesOnly = fixtures.person();
        fixtures.subscribe(feed, imagesOnly, Set.of(MediaType.IMAGE));
        // Counters built first, so the batch's counter moves are what is checked.
        everything.forEach(unread::unread);
        unread.unread(imagesOnly);
        Instant now = Instant.now();
        List<Long> items = publisher.publish(feed, List.of(entry("g-text", MediaType.TEXT, now.minusSeconds(3)),
                entry("g-image", MediaType.IMAGE, now.minusSeconds(2)), entry("g-text-2", MediaType.TEXT, now.minusSeconds(1))))
                .created();

        List<FanoutTask> group = fanout.claimGroup(100);
        assertThat(group).extracting(FanoutTask::itemId).containsExactlyInAnyOrderElementsOf(items);
        fanout.runGroup(group);

        for (long person : everything) {
            assertThat(fixtures.inbox(person)).containsExactlyElementsOf(items);
            assertThat(unread.unread(person)).isEqualTo(fixtures.truth(person))
                    .isEqualTo(new Unread(3, Map.of(feed, 3L), Map.of(MediaType.TEXT, 2L, MediaType.IMAGE, 1L)));
        }
        assertThat(fixtures.inbox(imagesOnly)).containsExactly(items.get(1));
        assertThat(unread.unread(imagesOnly)).isEqualTo(new Unread(1, Map.of(feed, 1L), Map.of(MediaType.IMAGE, 1L)));
        assertThat(fanout.pending()).isZero();
    }

    @Test
    void anItemTombstonedBeforeItsGroupRanIsNotDeliveredAndTheRestAre() {
        long feed = fixtures.feed();
        List<Long> people = fixtures.people(4);
        fixtures.subscribe(feed, people);
        people.forEach(unread::unread);
        List<Long> items = publisher.publish(feed, List.of(entry("kept-1"), entry("gone"), entry("kept-2"))).created();
        publisher.tombstone(items.get(1));

        fanout.drain();

        for (long person : people) {
            assertThat(fixtures.inbox(person)).containsExactly(items.get(0), items.get(2));
            assertThat(unread.unread(person)).isEqualTo(fixtures.truth(person))
                    .isEqualTo(new Unread(2, Map.of(feed, 2L), Map.of(MediaType.TEXT, 2L)));
        }
        assertThat(fanout.pending()).isZero();
    }

    @Test
    void aLargeAudienceIsSplitIntoRangesThatWorkersShare() {
        long feed = fixtures.feed();
        List<Long> people = fixtures.people(45); // first batch 7, then ranges of 10
        fixtures.subscribe(feed, people);
        long item = publisher.publish(feed, List.of(entry("big"))).created().getFirst();
        FanoutTask whole = fanout.claim(100).stream().filter(t -> t.itemId() == item).findFirst().orElseThrow();

        FanoutWorker.Batch first = fanout.batch(whole);

        List<Long> sorted = people.stream().sorted().toList();
        assertThat(first.endUser()).as("kept the first range").isEqualTo(sorted.get(16));
        assertThat(fixtures.rangesOf(item)).containsExactlyInAnyOrder(
                List.of(sorted.get(6), sorted.get(16)), List.of(sorted.get(16), sorted.get(26)),
                List.of(sorted.get(26), sorted.get(36)), List.of(sorted.get(36), Long.MAX_VALUE));
        fanout.drain(java.time.Duration.ofSeconds(30)); // includes waiting out the claimed task's lease
        for (long person : people) {
            assertThat(fixtures.inbox(person)).containsExactly(item);
            assertThat(unread.unread(person).total()).isEqualTo(1);
        }
    }

    @Test
    void aTextOnlySubscriptionNeverReceivesAVideo() {
        long feed = fixtures.feed();
        long textOnly = fixtures.person();
        long everything = fixtures.person();
        fixtures.subscribe(feed, textOnly, Set.of(MediaType.TEXT));
        fixtures.subscribe(feed, everything, null);

        PublishResult result = publisher.publish(feed, List.of(
                entry("video", MediaType.VIDEO, Instant.parse("2026-11-01T00:00:00Z")),
                entry("text", MediaType.TEXT, Instant.parse("2026-11-02T00:00:00Z"))));
        fanout.drain();

        assertThat(fixtures.inbox(textOnly)).containsExactly(result.created().get(1));
        assertThat(fixtures.inbox(everything)).containsExactlyElementsOf(result.created());
        assertThat(unread.unread(textOnly).byMedia()).isEqualTo(Map.of(MediaType.TEXT, 1L));
    }
}
