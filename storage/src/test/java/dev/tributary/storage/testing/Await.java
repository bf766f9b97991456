package dev.tributary.storage.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits, polling, for state that no callback announces (a fan-out, a crawl, an expiry), and
 * fails with what it waited for once the patience runs out; the one such wait of every module's
 * tests.
 */
public final class Await {

    /** How long a test waits for background work unless it says otherwise: generous, for a busy CI machine. */
    public static final Duration PATIENCE = Duration.ofSeconds(30);

    // The pause between probes doubles up to the longest: a short wait is seen at once, a long one
    // does not hammer the database or the app with probes.
    private static final long FIRST_PAUSE = Duration.ofMillis(5).toNanos();
    private static final long LONGEST_PAUSE = Duration.ofMillis(50).toNanos();

    /** What a wait waits for; it may throw, as a probe over HTTP or a parse does, and what it throws ends the wait. */
    @FunctionalInterface
    public interface Condition {

        boolean holds() throws Exception;
    }

    private Await() {
    }

    /** Returns once {@code condition} holds; fails after {@link #PATIENCE}. */
    public static void until(String what, Condition condition) {
        until(what, PATIENCE, condition);
    }

    /** Returns once {@code condition} holds; fails after {@code patience}. */
    public static void until(String what, Duration patience, Condition condition) {
        until(() -> what, patience, condition);
    }

    /**
     * Returns once {@code condition} holds; fails after {@link #PATIENCE} with {@code what} as it
     * is then, for a message that reports state worth seeing (what a server refused, say).
     */
    public static void until(Supplier<String> what, Condition condition) {
        until(what, PATIENCE, condition);
    }

    /** The first value of {@code probe} that is {@code done}; fails after {@link #PATIENCE}, naming the last value. */
    public static <T> T value(String what, Supplier<T> probe, Predicate<? super T> done) {
        return value(what, PATIENCE, probe, done);
    }

    /** The first value of {@code probe} that is {@code done}; fails after {@code patience}, naming the last value. */
    public static <T> T value(String what, Duration patience, Supplier<T> probe, Predicate<? super T> done) {
        long deadline = System.nanoTime() + patience.toNanos();
        long pause = FIRST_PAUSE;
        T last;
        while (!done.test(last = probe.get())) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + patience + " waiting for " + what + "; last: " + last);
            }
            pause = pause(pause);
        }
        return last;
    }

    /**
     * Whether {@code condition} came to hold within {@code patience}, without failing: for a
     * caller that asserts the outcome itself or reports it in its own terms.
     */
    public static boolean within(Duration patience, Condition condition) {
        long deadline = System.nanoTime() + patience.toNanos();
        long pause = FIRST_PAUSE;
        while (!holds(condition)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            pause = pause(pause);
        }
        return true;
    }

    private static void until(Supplier<String> what, Duration patience, Condition condition) {
        if (!within(patience, condition)) {
            throw new AssertionError("timed out after " + patience + " waiting for " + what.get());
        }
    }

    private static boolean holds(Condition condition) {
        try {
            return condition.holds();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new AssertionError("the condition waited for failed", e);
        }
    }

    private static long pause(long nanos) {
        LockSupport.parkNanos(nanos);
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting");
        }
        return Math.min(nanos * 2, LONGEST_PAUSE);
    }
}
