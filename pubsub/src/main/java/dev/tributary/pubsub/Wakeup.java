package dev.tributary.pubsub;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Wakes a worker waiting for work on this node (tasks or rows just committed here, a change
 * noticed) instead of at its next poll; work from other nodes is still found by polling.
 */
public final class Wakeup {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private long wakeups;

    public void wake() {
        lock.lock();
        try {
            wakeups++;
            work.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A mark to pass to {@link #await}: wake-ups after it end the wait at once. */
    public long mark() {
        lock.lock();
        try {
            return wakeups;
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code timeout} unless there was a wake-up since {@code mark}. */
    public void await(long mark, Duration timeout) throws InterruptedException {
        await(mark, timeout, () -> true);
    }

    /** As {@link #await(long, Duration)}, also ending once {@code keepWaiting} says no (checked at each wake-up). */
    public void await(long mark, Duration timeout, BooleanSupplier keepWaiting) throws InterruptedException {
        lock.lock();
        try {
            long nanos = timeout.toNanos();
            while (keepWaiting.getAsBoolean() && wakeups == mark && nanos > 0) {
                nanos = work.awaitNanos(nanos);
            }
        } finally {
            lock.unlock();
        }
    }
}
