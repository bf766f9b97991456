package dev.tributary.pubsub.inbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.storage.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Stamp moves handed to the mover are made on its thread, a settle waits for every one added
 * before it, and a full queue makes the adder move its own.
 */
class DeliveredStampMovesTest {

    private final List<List<Long>> moved = Collections.synchronizedList(new ArrayList<>());
    private final List<String> threads = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch release = new CountDownLatch(1);

    private DeliveredStampMoves blockedMover() {
        return new DeliveredStampMoves(people -> {
            threads.add(Thread.currentThread().getName());
            if (Thread.currentThread().getName().equals("delivered-stamp-moves")) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            moved.add(List.copyOf(people));
        });
    }

    @Test
    void aSettleWaitsForEveryMoveAddedBeforeIt() {
        DeliveredStampMoves moves = blockedMover();
        try {
            moves.add(List.of(1L, 2L));
            moves.add(List.of(3L));
            assertThat(moves.flushed(Duration.ofMillis(200))).as("the mover is held up").isFalse();
            assertThat(moved).isEmpty();

            release.countDown();

            assertThat(moves.flushed(Duration.ofSeconds(10))).isTrue();
            assertThat(moved.stream().flatMap(List::stream)).containsExactlyInAnyOrder(1L, 2L, 3L);
            assertThat(threads).containsOnly("delivered-stamp-moves");
        } finally {
            release.countDown();
            moves.stop();
        }
    }

    @Test
    void aFullQueueMakesTheAdderMoveItsOwnAndNothingIsLost() {
        DeliveredStampMoves moves = blockedMover();
        try {
            moves.add(List.of(0L));
            Await.until("the mover holds the first move", () -> threads.size() == 1);
            for (long person = 1; person <= 100; person++) {
                moves.add(List.of(person));
            }
            assertThat(threads).as("moves past the queue's bound made by the adder").contains(Thread.currentThread().getName());
            release.countDown();
            assertThat(moves.flushed(Duration.ofSeconds(10))).isTrue();
            assertThat(moved.stream().flatMap(List::stream)).hasSize(101).doesNotHaveDuplicates();
        } finally {
            release.countDown();
            moves.stop();
        }
    }

    @Test
    void stoppingMakesTheQueuedMovesOnTheStoppingThread() {
        DeliveredStampMoves moves = blockedMover();
        moves.add(List.of(0L));
        Await.until("the mover holds the first move", () -> threads.size() == 1);
        moves.add(List.of(7L));
        moves.stop();
        assertThat(moved.stream().flatMap(List::stream)).contains(7L);
        release.countDown();
    }
}
