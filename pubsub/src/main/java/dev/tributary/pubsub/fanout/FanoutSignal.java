package dev.tributary.pubsub.fanout;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.stereotype.Component;

/** Wakes this node's idle fan-out workers when tasks were just committed here (a publish, a split). */
@Component
class FanoutSignal {

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

    /** Waits up to {@code timeout} unless there was a wake-up since {@code mark}, or {@code stop} says so. */
    void await(long mark, Duration timeout, java.util.function.BooleanSupplier keepWaiting) throws InterruptedException {
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
