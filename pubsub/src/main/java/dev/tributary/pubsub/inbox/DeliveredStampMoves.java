package dev.tributary.pubsub.inbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The person-stamp moves of committed fan-out batches, made on one thread of this node instead of
 * the worker's: the worker writes its next batch while Redis moves the last one's stamps. A kept
 * page is stale a few milliseconds longer (it was between the commit and the move already); a
 * task's last batch waits for them ({@link #flushed}), so a finished fan-out is in every kept page.
 * When the queue is full the batch's own thread moves them, so Redis being slow slows fan-out
 * down rather than growing the queue.
 */
final class DeliveredStampMoves {

    private static final Logger log = LoggerFactory.getLogger(DeliveredStampMoves.class);
    /** Batches queued at most; a batch is up to a thousand people. */
    private static final int MAX_QUEUED = 64;
    /** People one turn of the mover takes together. */
    private static final int PEOPLE_PER_TURN = 4000;

    /** Whose stamps to move (nobody: a marker whose completion says every earlier move is made). */
    private record Moves(List<Long> people, CompletableFuture<Void> done) {}

    private final BlockingQueue<Moves> queue = new LinkedBlockingQueue<>(MAX_QUEUED);
    private final Consumer<List<Long>> move;
    private final Thread mover;

    /** {@code move} moves these people's stamps, on this node's mover thread, never throwing. */
    DeliveredStampMoves(Consumer<List<Long>> move) {
        this.move = move;
        this.mover = Thread.ofPlatform().name("delivered-stamp-moves").daemon(true).start(this::run);
    }

    /** Moves these stamps soon, or now on the caller's thread if too many moves wait. */
    void add(List<Long> people) {
        if (people.isEmpty()) {
            return;
        }
        if (!mover.isAlive() || !queue.offer(new Moves(people, new CompletableFuture<>()))) {
            move.accept(people);
        }
    }

    /**
     * Waits until every move added before this call is made, at most {@code timeout}; false if it
     * was not (the mover is stuck on Redis, whose failure owes the epoch anyway).
     */
    boolean flushed(Duration timeout) {
        CompletableFuture<Void> marker = new CompletableFuture<>();
        try {
            if (!mover.isAlive() || !queue.offer(new Moves(List.of(), marker), timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return queue.isEmpty();
            }
            marker.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private void run() {
        List<Moves> turn = new ArrayList<>();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                turn.add(queue.take());
                int count = turn.getFirst().people().size();
                while (count < PEOPLE_PER_TURN && queue.peek() != null) {
                    Moves next = queue.poll();
                    turn.add(next);
                    count += next.people().size();
                }
                List<Long> all = new ArrayList<>(count);
                turn.forEach(moves -> all.addAll(moves.people()));
                if (!all.isEmpty()) {
                    move.accept(all);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log.warn("Moving {} delivered stamps failed: {}", turn.size(), e.toString());
            } finally {
                turn.forEach(moves -> moves.done().complete(null));
                turn.clear();
            }
        }
    }

    /** Stops the mover; stamp moves still queued are made on the caller's thread. */
    void stop() {
        mover.interrupt();
        List<Moves> left = new ArrayList<>();
        queue.drainTo(left);
        left.forEach(moves -> {
            if (!moves.people().isEmpty()) {
                move.accept(moves.people());
            }
            moves.done().complete(null);
        });
    }
}
