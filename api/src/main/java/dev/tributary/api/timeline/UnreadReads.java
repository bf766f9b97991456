package dev.tributary.api.timeline;

import dev.tributary.pubsub.HomeFeed;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Reads the unread counts a node does not keep, for many requests together. When a pulled source
 * publishes, every follower's kept counts are void at once and their next polls all read MySQL:
 * one statement each took the database from everything beside them. Here each request queues,
 * and each reader takes as many as are waiting (up to {@link #PEOPLE_PER_BATCH}) and reads them
 * with {@link HomeFeed#unreadByFolder(java.util.Collection)}: one Redis round trip and at most one
 * statement for all of them. A lone request is read at once, alone.
 */
@Component
class UnreadReads implements DisposableBean {

    /** People read together: bounds a batch's {@code IN} lists and how long its first request waits for the last. */
    static final int PEOPLE_PER_BATCH = 200;
    /** Batches read at once on a node: at most this many pooled connections for all its count reads. */
    static final int READERS = 2;

    private record Ask(long userId, CompletableFuture<HomeFeed.UnreadByFolder> answer) {
    }

    private final HomeFeed home;
    /** At most one ask per request in flight (its thread waits for it), so bounded by the node's requests. */
    private final BlockingQueue<Ask> pending = new LinkedBlockingQueue<>();
    private final ExecutorService readers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("unread-read-", 0).factory());
    private volatile boolean stopped;

    UnreadReads(HomeFeed home) {
        this.home = home;
        for (int i = 0; i < READERS; i++) {
            readers.execute(this::read);
        }
    }

    /** The person's counts and folders, read now (with whoever else is waiting). */
    HomeFeed.UnreadByFolder unreadByFolder(long userId) throws InterruptedException {
        Ask ask = new Ask(userId, new CompletableFuture<>());
        if (stopped) {
            throw new IllegalStateException("unread reads are stopping");
        }
        pending.add(ask);
        if (stopped) {
            ask.answer().completeExceptionally(new IllegalStateException("unread reads are stopping"));
        }
        try {
            return ask.answer().get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
    }

    /** Requests waiting for a reader now (exposed to tests). */
    int waiting() {
        return pending.size();
    }

    private void read() {
        try {
            while (!stopped) {
                List<Ask> batch = new ArrayList<>();
                batch.add(pending.take());
                pending.drainTo(batch, PEOPLE_PER_BATCH - 1);
                read(batch);
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }

    private void read(List<Ask> batch) {
        try {
            Set<Long> people = new LinkedHashSet<>();
            batch.forEach(ask -> people.add(ask.userId()));
            Map<Long, HomeFeed.UnreadByFolder> counts = home.unreadByFolder(people);
            batch.forEach(ask -> ask.answer().complete(counts.get(ask.userId())));
        } catch (RuntimeException | Error e) {
            // Each waiting request fails as its own read would have; the reader goes on.
            batch.forEach(ask -> ask.answer().completeExceptionally(e));
        }
    }

    @Override
    public void destroy() {
        stopped = true;
        readers.shutdownNow();
        for (Ask left; (left = pending.poll()) != null; ) {
            left.answer().completeExceptionally(new IllegalStateException("unread reads are stopping"));
        }
    }
}
