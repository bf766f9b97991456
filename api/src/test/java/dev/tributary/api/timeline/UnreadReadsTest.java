package dev.tributary.api.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Unread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Requests whose counts are not kept are read together: those that queue while a batch is being
 * read go in the next one, and each gets its own person's counts. (Unit test: the counts are a fake.)
 */
class UnreadReadsTest {

    private final HomeFeed home = mock(HomeFeed.class);
    private final List<List<Long>> batches = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstBatchHeld = new CountDownLatch(UnreadReads.READERS);
    private final CountDownLatch release = new CountDownLatch(1);
    private UnreadReads reads;
    private final ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stop() {
        release.countDown();
        reads.destroy();
        requests.shutdownNow();
    }

    private static HomeFeed.UnreadByFolder countsOf(long person) {
        return new HomeFeed.UnreadByFolder(new Unread(person, Map.of(1L, person), Map.of(), 0), Map.of(), null);
    }

    @Test
    void requestsThatQueueWhileABatchIsReadAreReadTogetherEachGettingItsOwn() throws Exception {
        when(home.unreadByFolder(anyCollection())).thenAnswer(call -> {
            Collection<Long> people = call.getArgument(0);
            batches.add(List.copyOf(people));
            if (batches.size() <= UnreadReads.READERS) {
                firstBatchHeld.countDown();
                assertThat(release.await(30, TimeUnit.SECONDS)).isTrue();
            }
            Map<Long, HomeFeed.UnreadByFolder> counts = new HashMap<>();
            people.forEach(person -> counts.put(person, countsOf(person)));
            return counts;
        });
        reads = new UnreadReads(home);
        List<Future<HomeFeed.UnreadByFolder>> first = new ArrayList<>();
        for (long person = 1; person <= UnreadReads.READERS; person++) {
            long asked = person;
            first.add(requests.submit(() -> reads.unreadByFolder(asked)));
            awaitBatches(first.size());
        }
        assertThat(firstBatchHeld.await(30, TimeUnit.SECONDS)).isTrue();
        List<Future<HomeFeed.UnreadByFolder>> queued = new ArrayList<>();
        for (long person = 100; person < 150; person++) {
            long asked = person;
            queued.add(requests.submit(() -> reads.unreadByFolder(asked)));
        }
        awaitQueued(queued.size());
        release.countDown();

        for (int i = 0; i < first.size(); i++) {
            assertThat(first.get(i).get(30, TimeUnit.SECONDS).unread().total()).isEqualTo(i + 1);
        }
        for (int i = 0; i < queued.size(); i++) {
            assertThat(queued.get(i).get(30, TimeUnit.SECONDS).unread().total()).as("their own").isEqualTo(100 + i);
        }
        assertThat(batches.subList(UnreadReads.READERS, batches.size())).as("50 queued people, in fewer reads than people")
                .hasSizeLessThan(queued.size()).allMatch(batch -> batch.size() <= UnreadReads.PEOPLE_PER_BATCH);
        assertThat(batches.stream().mapToInt(List::size).sum()).isEqualTo(first.size() + queued.size());
    }

    @Test
    void aFailedReadFailsTheRequestsOfItsBatchAndTheNextReadWorks() throws Exception {
        when(home.unreadByFolder(anyCollection())).thenThrow(new IllegalStateException("MySQL is down"))
                .thenAnswer(call -> Map.of(7L, countsOf(7)));
        reads = new UnreadReads(home);
        assertThatThrownBy(() -> reads.unreadByFolder(7)).isInstanceOf(IllegalStateException.class).hasMessage("MySQL is down");
        assertThat(reads.unreadByFolder(7).unread().total()).isEqualTo(7);
    }

    /** Waits (with a deadline) until this many batches have started. */
    private void awaitBatches(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (batches.size() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.yield();
        }
        assertThat(batches).hasSizeGreaterThanOrEqualTo(count);
    }

    /** Waits (with a deadline) until this many requests wait in the queue. */
    private void awaitQueued(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (reads.waiting() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            Thread.yield();
        }
        assertThat(reads.waiting()).isEqualTo(count);
    }
}
