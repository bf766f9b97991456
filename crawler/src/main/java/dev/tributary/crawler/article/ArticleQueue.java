package dev.tributary.crawler.article;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * New items whose articles are to be fetched ahead of readers (their source is read in full by
 * someone), per node and in memory: bounded, so a burst of new items cannot grow it; an item left
 * out (or lost with the node) is fetched when a reader opens it, as any other.
 */
public final class ArticleQueue {

    /** An item and the page its article is on. */
    public record Entry(long itemId, String url) {
    }

    private final BlockingQueue<Entry> queue;
    private final AtomicLong dropped = new AtomicLong();

    public ArticleQueue(int capacity) {
        this.queue = new LinkedBlockingQueue<>(capacity);
    }

    /** Adds the items that link a page; those beyond the capacity are left to readers. */
    public void offer(List<Entry> entries) {
        for (Entry entry : entries) {
            if (!queue.offer(entry)) {
                dropped.incrementAndGet();
            }
        }
    }

    /** The next item, waiting at most {@code millis}; null if none came. */
    public @Nullable Entry next(long millis) throws InterruptedException {
        return queue.poll(millis, TimeUnit.MILLISECONDS);
    }

    public int size() {
        return queue.size();
    }

    /** Items left out because the queue was full, since start. */
    public long dropped() {
        return dropped.get();
    }
}
