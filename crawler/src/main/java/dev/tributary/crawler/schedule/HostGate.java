package dev.tributary.crawler.schedule;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Politeness per host, on this node: at most {@code perHost} requests to one host at once, and
 * at least {@code delay} between the starts of two of them. Callers block (they run on virtual
 * threads); hosts unused for a while are forgotten.
 */
public final class HostGate {

    private final long delayNanos;
    private final LongSupplier nanoClock;
    private final LoadingCache<String, Host> hosts;

    public HostGate(int perHost, Duration delay) {
        this(perHost, delay, System::nanoTime);
    }

    HostGate(int perHost, Duration delay, LongSupplier nanoClock) {
        this.delayNanos = delay.toNanos();
        this.nanoClock = nanoClock;
        this.hosts = Caffeine.newBuilder().expireAfterAccess(10, TimeUnit.MINUTES).build(host -> new Host(perHost));
    }

    /** A held turn at a host; closing it lets the next request in. */
    public interface Turn extends AutoCloseable {
        @Override
        void close();
    }

    /** Waits for a turn at {@code host}. */
    public Turn enter(String host) throws InterruptedException {
        Host state = hosts.get(host);
        state.slots.acquire();
        try {
            long wait = state.reserveStart(nanoClock.getAsLong(), delayNanos);
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        } catch (InterruptedException e) {
            state.slots.release();
            throw e;
        }
        return state.slots::release;
    }

    /** Reserves a start at {@code host} without taking a slot; how long the caller would wait. */
    long reserve(String host) {
        return hosts.get(host).reserveStart(nanoClock.getAsLong(), delayNanos);
    }

    private static final class Host {

        final Semaphore slots;
        private long nextStart = Long.MIN_VALUE;

        Host(int perHost) {
            this.slots = new Semaphore(perHost, true);
        }

        /** Reserves the next start slot; returns how long the caller must wait for it. */
        synchronized long reserveStart(long now, long delay) {
            long start = nextStart == Long.MIN_VALUE ? now : Math.max(now, nextStart);
            nextStart = start + delay;
            return start - now;
        }
    }
}
