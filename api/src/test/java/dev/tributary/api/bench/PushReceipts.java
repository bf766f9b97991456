package dev.tributary.api.bench;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One way the push benchmark's subscribers hear of a post (the live stream, a WebSub callback,
 * later XMPP): it records, for the round under way, when each of its subscribers first received
 * the round's marker text ({@code System.nanoTime()}, the same clock the publish was timed on).
 */
abstract class PushReceipts implements AutoCloseable {

    private final String name;
    private final int subscribers;
    private volatile String marker = "\u0000 no round yet";
    private volatile long[] receivedAt = new long[0];
    private volatile CountDownLatch all = new CountDownLatch(0);

    PushReceipts(String name, int subscribers) {
        this.name = name;
        this.subscribers = subscribers;
    }

    String name() {
        return name;
    }

    /** Starts a round: receipts of {@code text} from now on count. */
    final void expect(String text) {
        receivedAt = new long[subscribers];
        all = new CountDownLatch(subscribers);
        marker = text;
    }

    /** Subscriber {@code index} received {@code content}; counts once per round if it carries the marker. */
    final void received(int index, String content) {
        received(index, content, System.nanoTime());
    }

    /** As {@link #received(int, String)}, heard at {@code now} ({@code System.nanoTime()} here or in a child JVM: one clock on Linux). */
    final void received(int index, String content, long now) {
        long[] times = receivedAt;
        if (index < 0 || index >= times.length || !content.contains(marker)) {
            return;
        }
        synchronized (times) {
            if (times[index] != 0) {
                return;
            }
            times[index] = now;
        }
        all.countDown();
    }

    /** Waits for every subscriber's receipt (at most {@code seconds}); the latencies from {@code publishedAt}, in nanoseconds. */
    final long[] await(long publishedAt, long seconds) throws InterruptedException {
        all.await(seconds, TimeUnit.SECONDS);
        long[] times = receivedAt;
        synchronized (times) {
            return Arrays.stream(times).filter(t -> t != 0).map(t -> Math.max(0, t - publishedAt)).toArray();
        }
    }

    @Override
    public abstract void close();

    int subscribers() {
        return subscribers;
    }
}
