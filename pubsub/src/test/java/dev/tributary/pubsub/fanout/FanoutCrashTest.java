package dev.tributary.pubsub.fanout;

import static dev.tributary.pubsub.testing.Fixtures.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.inbox.InboxParts;
import dev.tributary.pubsub.testing.Fixtures;
import dev.tributary.pubsub.testing.WithEmbeddedPubsub;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A worker that dies mid-task (after some batches, and in a batch after moving its counters in
 * Redis but before the commit) loses nothing and doubles nothing: the task is taken over when
 * its lease expires.
 */
@WithEmbeddedPubsub
class FanoutCrashTest {

    @Autowired Publisher publisher;
    @Autowired HomeFeed home;
    @Autowired Fixtures fixtures;
    @Autowired Fanout fanout;
    @Autowired InboxParts inbox;

    @Test
    void aTaskAbandonedMidwayIsTakenOverAndEveryInboxGetsTheItemOnceWithExactCounts() {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(40); // batches of 7: six batches
        fixtures.subscribe(feed, readers);
        // Counters built before the crash, so a missed delta would show as a wrong count.
        readers.forEach(home::unread);
        long item = publisher.publish(feed, List.of(entry("crash"))).created().getFirst();

        FanoutTask task = fanout.claim(10).stream().filter(t -> t.itemId() == item).findFirst().orElseThrow();
        FanoutWorker.Batch first = fanout.batch(task);
        // The second batch moves its people's counters, then the worker dies before the commit.
        List<Long> secondPage = readers.stream().sorted().filter(r -> r > first.cursor()).limit(7).toList();
        inbox.countUncommitted(secondPage, feed, MediaType.TEXT);
        assertThat(home.unread(secondPage.getFirst()).total()).as("counted, not delivered").isEqualTo(1);
        assertThat(fixtures.inbox(secondPage.getFirst())).isEmpty();

        fanout.drain(Duration.ofSeconds(30)); // waits out the one-second lease, then takes over

        for (long reader : readers) {
            assertThat(fixtures.inbox(reader)).as("reader %d", reader).containsExactly(item);
            assertThat(home.unread(reader)).as("reader %d", reader)
                    .isEqualTo(new Unread(1, Map.of(feed, 1L), Map.of(MediaType.TEXT, 1L)));
        }
    }

    @Test
    void aGroupOfItemsAbandonedMidwayIsTakenOverAndEveryInboxGetsEachItemOnceWithExactCounts() {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(11); // batches of 7 rows: pages of 2 people for 3 items
        fixtures.subscribe(feed, readers);
        readers.forEach(home::unread);
        List<Long> items = publisher.publish(feed, List.of(entry("group-1"), entry("group-2"), entry("group-3"))).created();

        List<FanoutTask> group = fanout.claimGroup(10);
        assertThat(group).as("one publish to one audience runs together").extracting(FanoutTask::itemId)
                .containsExactlyInAnyOrderElementsOf(items);
        FanoutWorker.Batch first = fanout.batch(group);
        assertThat(first.rows()).as("two people, three items each").hasSize(6);
        // The next batch moves its people's counters (one item's worth), then the worker dies before the commit.
        List<Long> secondPage = readers.stream().sorted().filter(r -> r > first.cursor()).limit(2).toList();
        inbox.countUncommitted(secondPage, feed, MediaType.TEXT);

        fanout.drain(Duration.ofSeconds(30)); // waits out the one-second leases, then takes the tasks over

        for (long reader : readers) {
            assertThat(fixtures.inbox(reader)).as("reader %d", reader).containsExactlyElementsOf(items.stream().sorted().toList());
            assertThat(home.unread(reader)).as("reader %d", reader)
                    .isEqualTo(new Unread(3, Map.of(feed, 3L), Map.of(MediaType.TEXT, 3L)));
        }
    }

    @Test
    void aGroupWithATaskWhoseLeaseWasLostRollsBackItsBatchAndTheOthersGoOnAlone() {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(5);
        fixtures.subscribe(feed, readers);
        readers.forEach(home::unread);
        List<Long> items = publisher.publish(feed, List.of(entry("lost-1"), entry("lost-2"))).created();
        List<FanoutTask> group = fanout.claimGroup(10);
        assertThat(group).hasSize(2);
        // The first task's lease expires and another worker finishes it; then this worker runs the group.
        fixtures.expireLease(group.getFirst().id());
        FanoutTask takenOver = fanout.claim(10).stream().filter(t -> t.id() == group.getFirst().id()).findFirst().orElseThrow();
        fanout.run(takenOver, () -> true);

        fanout.runGroup(group);

        for (long reader : readers) {
            assertThat(fixtures.inbox(reader)).as("reader %d", reader).containsExactlyElementsOf(items.stream().sorted().toList());
            assertThat(home.unread(reader)).as("reader %d", reader)
                    .isEqualTo(new Unread(2, Map.of(feed, 2L), Map.of(MediaType.TEXT, 2L)));
        }
        assertThat(fanout.pending()).isZero();
    }

    @Test
    void aWorkerThatLostItsLeaseCannotCommitAnotherBatch() {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(20);
        fixtures.subscribe(feed, readers);
        long item = publisher.publish(feed, List.of(entry("fenced"))).created().getFirst();
        FanoutTask stale = fanout.claim(10).stream().filter(t -> t.itemId() == item).findFirst().orElseThrow();

        fanout.drain(Duration.ofSeconds(30)); // the lease expires and the task is done by another

        assertThatThrownBy(() -> fanout.batch(stale)).isInstanceOf(LeaseLostException.class);
        readers.forEach(reader -> assertThat(fixtures.inbox(reader)).containsExactly(item));
    }

    @Test
    void aWorkerStoppedBetweenBatchesHandsTheTaskBackForTheNext() {
        long feed = fixtures.feed();
        List<Long> readers = fixtures.people(20);
        fixtures.subscribe(feed, readers);
        long item = publisher.publish(feed, List.of(entry("stopped"))).created().getFirst();
        FanoutTask task = fanout.claim(10).stream().filter(t -> t.itemId() == item).findFirst().orElseThrow();
        int[] batches = {0};

        fanout.run(task, () -> batches[0]++ < 1); // one batch, then a clean stop

        assertThat(fixtures.leaseOf(item)).as("handed back, not left to expire").isNull();
        fanout.drain(Duration.ofSeconds(30));
        readers.forEach(reader -> assertThat(fixtures.inbox(reader)).containsExactly(item));
        readers.forEach(reader -> assertThat(home.unread(reader)).isEqualTo(fixtures.truth(reader)));
    }
}
