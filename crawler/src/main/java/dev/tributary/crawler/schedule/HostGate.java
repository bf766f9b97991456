package dev.tributary.crawler.schedule;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Politeness on this node, per host and per address: at most {@code perHost} requests to one
 * host (name and port, as robots.txt counts) at once, at least {@code delay} between the starts
 * of two of them, and at most {@code perAddress} requests to one resolved address (IP and port)
 * at once, so that many names pointing at one server (wildcard DNS) share one budget.
 *
 * <p>A caller that finds either full is refused (after waiting at most what it allows) and told
 * when to come back: refusals queue up behind each other at the pace the host has been
 * answering, so a host with a thousand due feeds that answers one request per second sends
 * them back spread over a thousand seconds, not all at once every few. The crawl hands such a
 * feed back instead of holding a crawl slot waiting. Hosts and addresses unused for a while are
 * forgotten.
 */
public final class HostGate {

    /** What a request is assumed to take at a host not yet timed. */
    private static final long FIRST_GUESS = TimeUnit.SECONDS.toNanos(1);

    private final long delayNanos;
    private final LongSupplier nanoClock;
    private final LoadingCache<String, Budget> hosts;
    private final LoadingCache<String, Budget> addresses;

    public HostGate(int perHost, int perAddress, Duration delay) {
        this(perHost, perAddress, delay, System::nanoTime);
    }

    HostGate(int perHost, int perAddress, Duration delay, LongSupplier nanoClock) {
        this.delayNanos = delay.toNanos();
        this.nanoClock = nanoClock;
        this.hosts = Caffeine.newBuilder().expireAfterAccess(10, TimeUnit.MINUTES).build(host -> new Budget(perHost));
        this.addresses = Caffeine.newBuilder().expireAfterAccess(10, TimeUnit.MINUTES).build(address -> new Budget(perAddress));
    }

    /** A held turn at a host; closing it lets the next request in. */
    public interface Turn extends AutoCloseable {
        @Override
        void close();
    }

    /** A turn, or (turn null) how long until the caller's place in the host's queue comes. */
    public record Admission(@Nullable Turn turn, Duration retryIn) {

        public boolean admitted() {
            return turn != null;
        }
    }

    /** Finds the address a host resolves to ("ip:port"), or null when it cannot tell. */
    @FunctionalInterface
    public interface Lookup {
        @Nullable String address() throws InterruptedException;
    }

    /** The politeness key of a url's host: its name and port ({@code example.org:443}). */
    public static String host(URI url) {
        String name = url.getHost() == null ? "" : url.getHost().toLowerCase(Locale.ROOT);
        int port = url.getPort() != -1 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
        return name + ":" + port;
    }

    /**
     * A turn at {@code host} and at the address it resolves to, waiting at most {@code maxWait}
     * for a free slot at each (zero: not at all), then out the delay between starts; refused if
     * no slot came free in time.
     *
     * @param address resolves the host, asked only once a host slot is held (a busy host costs
     *     no lookup); returns null when unknown, and the host's own limits then apply alone
     */
    public Admission enter(String host, Lookup address, Duration maxWait) throws InterruptedException {
        long deadline = nanoClock.getAsLong() + maxWait.toNanos();
        Budget site = hosts.get(host);
        if (!site.slots.tryAcquire(maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
            return refused(site);
        }
        Budget server;
        try {
            String resolved = address.address();
            server = resolved == null ? null : addresses.get(resolved);
            if (server != null && !server.slots.tryAcquire(Math.max(0, deadline - nanoClock.getAsLong()), TimeUnit.NANOSECONDS)) {
                site.slots.release();
                return refused(server);
            }
        } catch (InterruptedException | RuntimeException e) {
            site.slots.release();
            throw e;
        }
        Turn turn = new Held(site, server);
        waitForStart(site, turn);
        return new Admission(turn, Duration.ZERO);
    }

    /** Reserves a start at {@code host} without taking a slot; how long the caller would wait. */
    long reserve(String host) {
        return hosts.get(host).reserveStart(nanoClock.getAsLong(), delayNanos);
    }

    private Admission refused(Budget budget) {
        return new Admission(null, Duration.ofNanos(budget.queue(nanoClock.getAsLong())));
    }

    private void waitForStart(Budget site, Turn turn) throws InterruptedException {
        long wait = site.reserveStart(nanoClock.getAsLong(), delayNanos);
        if (wait <= 0) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(wait);
        } catch (InterruptedException e) {
            turn.close();
            throw e;
        }
    }

    /** Slots at a host and its address; closing times the request for the hosts' queues. */
    private final class Held implements Turn {

        private final Budget site;
        private final @Nullable Budget server;
        private final long start = nanoClock.getAsLong();

        Held(Budget site, @Nullable Budget server) {
            this.site = site;
            this.server = server;
        }

        @Override
        public void close() {
            long took = nanoClock.getAsLong() - start;
            site.took(took);
            site.slots.release();
            if (server != null) {
                server.took(took);
                server.slots.release();
            }
        }
    }

    private static final class Budget {

        final Semaphore slots;
        private final int size;
        private long nextStart = Long.MIN_VALUE;
        private long queueEnd = Long.MIN_VALUE;
        private long typical = FIRST_GUESS;

        Budget(int size) {
            this.slots = new Semaphore(size, true);
            this.size = size;
        }

        /** Reserves the next start slot; returns how long the caller must wait for it. */
        synchronized long reserveStart(long now, long delay) {
            long start = nextStart == Long.MIN_VALUE ? now : Math.max(now, nextStart);
            nextStart = start + delay;
            return start - now;
        }

        /** A place behind those refused before, one request's share of the slots later; how long until it comes. */
        synchronized long queue(long now) {
            long from = queueEnd == Long.MIN_VALUE ? now : Math.max(now, queueEnd);
            queueEnd = from + typical / size;
            return queueEnd - now;
        }

        /** Moves the typical request time a quarter of the way towards one just timed. */
        synchronized void took(long nanos) {
            typical += (Math.max(0, nanos) - typical) / 4;
        }
    }
}
