package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.Wakeup;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.springframework.stereotype.Component;

/** Wakes this node's idle fan-out workers when tasks were just committed here (a publish, a split). */
@Component
class FanoutSignal {

    private final Wakeup wakeup = new Wakeup();

    void wake() {
        wakeup.wake();
    }

    /** A mark to pass to {@link #await}: wake-ups after it end the wait at once. */
    long mark() {
        return wakeup.mark();
    }

    /** Waits up to {@code timeout} unless there was a wake-up since {@code mark}, or {@code keepWaiting} says no. */
    void await(long mark, Duration timeout, BooleanSupplier keepWaiting) throws InterruptedException {
        wakeup.await(mark, timeout, keepWaiting);
    }
}
