package dev.tributary.api.hub;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** Wakes a waiting hub worker when there is work (a change noticed, a delivery marked) instead of its next tick. */
final class Wakeup {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private long wakeups;

    void wake() {
        lock.lock();
        try {
            wakeups++;
            work.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** A mark to pass to {@link #await}: wake-ups after it end the wait at once. */
    long mark() {
        lock.lock();
        try {
            return wakeups;
        } finally {
            lock.unlock();
        }
    }

    void await(long mark, Duration timeout) throws InterruptedException {
        lock.lock();
        try {
            long nanos = timeout.toNanos();
            while (wakeups == mark && nanos > 0) {
                nanos = work.awaitNanos(nanos);
            }
        } finally {
            lock.unlock();
        }
    }
}
