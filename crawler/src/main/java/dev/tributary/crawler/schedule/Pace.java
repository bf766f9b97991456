package dev.tributary.crawler.schedule;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * One host's (or address's) pace on this node: how many requests at once and how far apart
 * their starts, adapting to how it answers as TCP adapts its window (additive increase,
 * multiplicative decrease). It starts at the configured concurrency and delay. Each clean answer
 * that is not slow halves the delay (to at most what the answer took) and adds concurrency: one
 * per answer until the first trouble (slow start), then one per window of answers. Trouble
 * (429/503, other 5xx, a timeout, a refused connection, an answer far slower than the host's
 * usual) halves the concurrency (floor 1) and doubles the delay, once per window: answers to
 * requests started before the last cut do not cut again. A {@code Retry-After} also pauses the
 * host. Times are nanoTime values from the caller's clock, so tests drive it.
 */
final class Pace {

    /** What a request is assumed to take at a host not yet timed (for the queue of refused callers). */
    static final long FIRST_GUESS = TimeUnit.MILLISECONDS.toNanos(100);
    /** A delay shrunk below this is no delay. */
    private static final long NEGLIGIBLE = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * An answer is slow only past this too: a host answering in a millisecond is not struggling
     * at ten, and a loaded crawler's own pauses (GC, a busy core) are not the host's.
     */
    private static final long SLOW_FLOOR = TimeUnit.SECONDS.toNanos(1);
    private static final long UNSET = Long.MIN_VALUE;
    /** The lane of refused callers who are nobody's in particular (a feed with several readers, a subscribe-time fetch). */
    static final long SHARED_LANE = 0;
    /** Lanes past this many make the pace forget those already over; past {@link #MAX_LANES}, newcomers share one. */
    private static final int PRUNE_LANES = 256;
    private static final int MAX_LANES = 4_096;

    private final HostGate.Rules rules;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition freed = lock.newCondition();
    private double limit;
    private boolean slowStart = true;
    private int inFlight;
    private long delay;
    private long lastStart = UNSET;
    /** Per lane of refused callers (one per person whose feeds wait here), when its last place comes. */
    private final Map<Long, Long> queueEnds = new HashMap<>();
    private long pausedUntil = UNSET;
    private long lastCut = UNSET;
    private long typical = FIRST_GUESS;
    private long baseline = UNSET;

    Pace(HostGate.Rules rules) {
        this.rules = rules;
        this.limit = rules.initial();
        this.delay = rules.delay().toNanos();
    }

    /**
     * Takes a slot if one is free within {@code waitNanos} (and the host is not paused); false
     * otherwise. {@code clock} reads now.
     */
    boolean acquire(long waitNanos, LongSupplier clock) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            long remaining = waitNanos;
            while (inFlight >= slots() || paused(clock.getAsLong())) {
                if (paused(clock.getAsLong()) || remaining <= 0) {
                    return false;
                }
                remaining = freed.awaitNanos(remaining);
            }
            inFlight++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Gives a slot back without an answer to learn from (the request was not made). */
    void release() {
        lock.lock();
        try {
            inFlight--;
            freed.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * A request that started at {@code start} ended at {@code now} with {@code answer}; gives its
     * slot back and adapts. {@code retryAfterNanos} is the server's Retry-After (0: none).
     */
    void answered(HostGate.Answer answer, long start, long now, long retryAfterNanos) {
        lock.lock();
        try {
            inFlight--;
            long took = Math.max(0, now - start);
            typical += (took - typical) / 4;
            switch (rules.fixed() ? HostGate.Answer.UNKNOWN : answer) {
                case CLEAN -> {
                    boolean slow = slow(took);
                    // Every answer moves the usual a little, so a lasting slowdown becomes the new usual after a few cuts.
                    baseline = baseline == UNSET ? took : baseline + (took - baseline) / 8;
                    if (slow) {
                        cut(start, now);
                    } else {
                        grow(took);
                    }
                }
                case THROTTLED -> {
                    cut(start, now);
                    if (retryAfterNanos > 0) {
                        long until = now + Math.min(retryAfterNanos, rules.maxPause().toNanos());
                        pausedUntil = pausedUntil == UNSET ? until : Math.max(pausedUntil, until);
                    }
                }
                case TROUBLE -> cut(start, now);
                case UNKNOWN -> {
                    // Nothing learnt about the host's load (the request never reached it).
                }
            }
            freed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the delay has passed since the last start, then starts. The delay is read
     * again whenever an answer changes it, so callers waiting behind a host's first, cautious
     * delay go as soon as its first answers shorten it.
     */
    void awaitStart(LongSupplier clock) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            for (long wait; (wait = startWait(clock.getAsLong())) > 0; ) {
                freed.awaitNanos(wait);
            }
            lastStart = clock.getAsLong();
        } finally {
            lock.unlock();
        }
    }

    /** How long a start now would wait (0: none). */
    long startWait(long now) {
        lock.lock();
        try {
            return lastStart == UNSET ? 0 : Math.max(0, lastStart + delay - now);
        } finally {
            lock.unlock();
        }
    }

    /** Records a start now, without waiting (tests). */
    void started(long now) {
        lock.lock();
        try {
            lastStart = now;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A refused caller's place behind those refused before in its {@code lane}, one request's
     * share of the slots later (or the end of a pause); how long until it comes. Each person's
     * feeds queue in a lane of their own and lanes run side by side, so the places are dealt
     * round-robin over the people waiting at the host: one person's thousand feeds spread over a
     * thousand places in their lane, while another person's one feed comes back one place from
     * now (issue 52). Feeds with several readers share {@link #SHARED_LANE}.
     */
    long queue(long now) {
        return queue(now, SHARED_LANE);
    }

    /** {@link #queue(long)} in one of the lanes that share the host round-robin. */
    long queue(long now, long lane) {
        lock.lock();
        try {
            if (queueEnds.size() >= PRUNE_LANES && !queueEnds.containsKey(lane)) {
                queueEnds.values().removeIf(end -> end - now <= 0);
            }
            long key = queueEnds.size() >= MAX_LANES && !queueEnds.containsKey(lane) ? SHARED_LANE : lane;
            Long end = queueEnds.get(key);
            long from = end == null ? now : Math.max(now, end);
            if (paused(now)) {
                from = Math.max(from, pausedUntil);
            }
            long place = from + Math.max(typical / slots(), delay);
            queueEnds.put(key, place);
            return place - now;
        } finally {
            lock.unlock();
        }
    }

    /** Requests allowed at once now. */
    int slots() {
        lock.lock();
        try {
            return (int) Math.floor(limit);
        } finally {
            lock.unlock();
        }
    }

    /** The least time between two starts now. */
    long delayNanos() {
        lock.lock();
        try {
            return delay;
        } finally {
            lock.unlock();
        }
    }

    /** The delay this pace started with (the configured one). */
    long initialDelayNanos() {
        return rules.delay().toNanos();
    }

    /** What a request has typically taken here (a running average). */
    long typicalNanos() {
        lock.lock();
        try {
            return typical;
        } finally {
            lock.unlock();
        }
    }

    private boolean paused(long now) {
        return pausedUntil != UNSET && now - pausedUntil < 0;
    }

    /** Far slower than the host's usual clean answer: it is struggling. */
    private boolean slow(long took) {
        return baseline != UNSET && took > rules.slowFactor() * Math.max(baseline, SLOW_FLOOR);
    }

    private void grow(long took) {
        limit = Math.min(rules.max(), limit + (slowStart ? 1 : 1 / Math.max(1, limit)));
        // Halved, and no longer than the answer took: a host answering in 10 ms is not kept 500 ms apart.
        long shorter = Math.min(delay / 2, took);
        delay = shorter < Math.max(NEGLIGIBLE, rules.minDelay().toNanos()) ? rules.minDelay().toNanos() : shorter;
    }

    /** Halves the concurrency and doubles the delay, once per window of requests. */
    private void cut(long start, long now) {
        slowStart = false;
        if (lastCut != UNSET && start - lastCut < 0) {
            // Started before the last cut: its trouble was already counted.
            return;
        }
        lastCut = now;
        limit = Math.max(1, Math.floor(limit) / 2);
        long grown = Math.max(delay * 2, Math.max(rules.delay().toNanos(), typical));
        delay = Math.min(rules.maxDelay().toNanos(), Math.max(rules.minDelay().toNanos(), grown));
    }
}
