package dev.tributary.crawler.schedule;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.tributary.crawler.fetch.FetchFailure;
import dev.tributary.crawler.fetch.FetchOutcome;
import dev.tributary.crawler.fetch.FetchResult;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Politeness on this node, per host and per address: requests to one host (name and port, as
 * robots.txt counts) at once, a least time between the starts of two of them, and requests to
 * one resolved address (IP and port) at once, so that many names pointing at one server
 * (wildcard DNS) share one budget. Each budget is a {@link Pace} that adapts to how the host
 * answers (see {@link Rules}): a host that answers fast and cleanly earns more at once and
 * shorter gaps, up to caps; one that slows down, errors or says 429/503 gets less.
 *
 * <p>A caller that finds either full is refused (after waiting at most what it allows) and told
 * when to come back: refusals queue up behind each other at the pace the host has been
 * answering, so a host with a thousand due feeds that answers one request per second sends
 * them back spread over a thousand seconds, not all at once every few. Each person whose feeds
 * wait at a host queues in a lane of their own, and the lanes share the host round-robin: one
 * person's thousand tar-pit feeds spread over their own lane, while another person's feed on the
 * same host comes back one place from now (issue 52). The crawl hands such a
 * feed back instead of holding a crawl slot waiting. The state is this node's, in memory and
 * bounded: hosts and addresses unused for {@code forgetAfter}, or past the most remembered,
 * are forgotten (they start again at the configured pace); two crawler nodes each learn their own.
 */
public final class HostGate {

    /**
     * How one kind of budget adapts.
     *
     * @param initial requests at once to start with
     * @param max most requests at once a fast, clean host earns
     * @param delay least time between starts to start with
     * @param minDelay the shortest that delay shrinks to
     * @param maxDelay the longest it grows to
     * @param slowFactor an answer this many times slower than the host's usual clean answer
     *     counts as trouble
     * @param maxPause longest pause a {@code Retry-After} imposes on the host
     */
    public record Rules(int initial, int max, Duration delay, Duration minDelay, Duration maxDelay, double slowFactor,
            Duration maxPause) {

        public Rules {
            if (initial < 1 || max < initial) {
                throw new IllegalArgumentException("concurrency must start at 1 or more and at most its cap: " + initial + ", " + max);
            }
            if (minDelay.isNegative() || delay.compareTo(minDelay) < 0 || maxDelay.compareTo(delay) < 0) {
                throw new IllegalArgumentException("delays must be 0 <= min <= start <= max: " + minDelay + ", " + delay
                        + ", " + maxDelay);
            }
            if (!(slowFactor > 1)) {
                throw new IllegalArgumentException("slow factor must be above 1: " + slowFactor);
            }
        }

        /** Whether this pace never adapts (see {@link #fixed(int, Duration)}). */
        boolean fixed() {
            return max == initial && minDelay.equals(maxDelay);
        }

        /** A pace that never adapts: always {@code concurrency} at once, {@code delay} apart. */
        public static Rules fixed(int concurrency, Duration delay) {
            return new Rules(concurrency, concurrency, delay, delay, delay, 2, Duration.ZERO);
        }
    }

    /** How an answer bears on the host's pace. */
    enum Answer {
        /** A response, of any status but the ones below: the host is coping. */
        CLEAN,
        /** 429 or 503: the host asks for less. */
        THROTTLED,
        /** Another 5xx, a timeout, a refused or broken connection: the host is struggling. */
        TROUBLE,
        /** The request never reached the host (bad url, DNS, a refused address): nothing learnt. */
        UNKNOWN;

        static Answer of(FetchOutcome outcome) {
            return switch (outcome) {
                case FetchResult result -> CLEAN;
                case FetchFailure failure when failure.status() != null && (failure.status() == 429 || failure.status() == 503) -> THROTTLED;
                case FetchFailure failure -> switch (failure.reason()) {
                    case SERVER_ERROR, TIMEOUT, CONNECT, PROTOCOL, TLS -> TROUBLE;
                    case INVALID_URL, BLOCKED_ADDRESS, DNS -> UNKNOWN;
                    default -> CLEAN;
                };
            };
        }
    }

    /** The lane of requests that are nobody's in particular: feeds with several readers, subscribe-time fetches. */
    public static final long SHARED = Pace.SHARED_LANE;

    /** The longest a crawl waits for a turn rather than hand its feed back. */
    static final Duration PATIENCE = Duration.ofMillis(100);

    private final LongSupplier nanoClock;
    private final LoadingCache<String, Pace> hosts;
    private final LoadingCache<String, Pace> addresses;

    /** A fixed pace: {@code perHost} and {@code perAddress} at once, {@code delay} apart, never adapting. */
    public HostGate(int perHost, int perAddress, Duration delay) {
        this(Rules.fixed(perHost, delay), Rules.fixed(perAddress, Duration.ZERO), 100_000, Duration.ofMinutes(10),
                System::nanoTime);
    }

    HostGate(int perHost, int perAddress, Duration delay, LongSupplier nanoClock) {
        this(Rules.fixed(perHost, delay), Rules.fixed(perAddress, Duration.ZERO), 100_000, Duration.ofMinutes(10), nanoClock);
    }

    /**
     * @param remembered most hosts (and, apart, most addresses) whose pace is kept; the least
     *     recently used go first
     * @param forgetAfter a host or address unused this long is forgotten
     */
    public HostGate(Rules perHost, Rules perAddress, int remembered, Duration forgetAfter) {
        this(perHost, perAddress, remembered, forgetAfter, System::nanoTime);
    }

    HostGate(Rules perHost, Rules perAddress, int remembered, Duration forgetAfter, LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.hosts = Caffeine.newBuilder().maximumSize(remembered).expireAfterAccess(forgetAfter)
                .build(host -> new Pace(perHost));
        this.addresses = Caffeine.newBuilder().maximumSize(remembered).expireAfterAccess(forgetAfter)
                .build(address -> new Pace(perAddress));
    }

    /** A held turn at a host; closing it lets the next request in. */
    public interface Turn extends AutoCloseable {

        /** How the request went, for the host's pace; a turn closed without it teaches nothing. */
        void answered(FetchOutcome outcome);

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
     * no slot came free in time, or if the delay (grown after trouble) is longer than both
     * {@code maxWait} and the configured delay.
     *
     * @param address resolves the host, asked only once a host slot is held (a busy host costs
     *     no lookup); returns null when unknown, and the host's own limits then apply alone
     */
    public Admission enter(String host, Lookup address, Duration maxWait) throws InterruptedException {
        return enter(host, SHARED, address, maxWait);
    }

    /**
     * {@link #enter(String, Lookup, Duration)} for a request of {@code lane}'s: a refusal's place
     * is in that lane of the host's queue, and the host deals its places round-robin over the
     * lanes waiting (see {@link Pace#queue(long, long)}), so one person's pile of feeds on a host
     * does not push another's feed there to the back. The lane of a feed one person alone reads
     * is that person's id; {@link #SHARED} is everyone else's.
     */
    public Admission enter(String host, long lane, Lookup address, Duration maxWait) throws InterruptedException {
        long deadline = nanoClock.getAsLong() + maxWait.toNanos();
        Pace site = hosts.get(host);
        if (!site.acquire(maxWait.toNanos(), nanoClock)) {
            return refused(site, lane);
        }
        Pace server;
        try {
            String resolved = address.address();
            server = resolved == null ? null : addresses.get(resolved);
            if (server != null && !server.acquire(Math.max(0, deadline - nanoClock.getAsLong()), nanoClock)) {
                site.release();
                return refused(server, lane);
            }
        } catch (InterruptedException | RuntimeException e) {
            site.release();
            throw e;
        }
        Admission later = laterIfDelayGrown(site, server, maxWait, lane);
        if (later != null) {
            return later;
        }
        Held turn = new Held(site, server);
        waitForStart(site, turn);
        // Timed from here: the wait for the start is the gate's, not the host's.
        turn.start = nanoClock.getAsLong();
        return new Admission(turn, Duration.ZERO);
    }

    /**
     * A refusal, with slots given back, when the start is further off than both {@code maxWait}
     * and the configured delay (a delay grown after trouble): the caller comes back then rather
     * than wait it out holding slots. Null when the caller may wait for its start.
     */
    private @Nullable Admission laterIfDelayGrown(Pace site, @Nullable Pace server, Duration maxWait, long lane) {
        long startWait = site.startWait(nanoClock.getAsLong());
        if (startWait <= Math.max(maxWait.toNanos(), site.initialDelayNanos())) {
            return null;
        }
        site.release();
        if (server != null) {
            server.release();
        }
        return new Admission(null, Duration.ofNanos(Math.max(startWait, site.queue(nanoClock.getAsLong(), lane))));
    }

    /** How long a start at {@code host} now would wait for the delay (tests). */
    long startWait(String host) {
        return hosts.get(host).startWait(nanoClock.getAsLong());
    }

    /** Records a start at {@code host} now without a slot or a wait (tests). */
    void started(String host) {
        hosts.get(host).started(nanoClock.getAsLong());
    }

    /**
     * How long a crawl may wait for a turn at {@code host} rather than hand its feed back: about
     * one of its answers, and at most {@link #PATIENCE}, so that a fast host's feeds wait a few
     * milliseconds for a slot instead of going round the database, while a slow host's (a tar
     * pit's) are handed back at once.
     */
    public Duration patience(String host) {
        return Duration.ofNanos(Math.min(PATIENCE.toNanos(), hosts.get(host).typicalNanos()));
    }

    /** Requests {@code host} may have at once now (tests and the benchmark read the pace). */
    public int slots(String host) {
        return hosts.get(host).slots();
    }

    /** The least time between two starts at {@code host} now. */
    public Duration delay(String host) {
        return Duration.ofNanos(hosts.get(host).delayNanos());
    }

    /** Requests {@code address} ("ip:port") may have at once now. */
    public int addressSlots(String address) {
        return addresses.get(address).slots();
    }

    /** Hosts whose pace is remembered (at most the configured number, give or take eviction's lag). */
    long remembered() {
        hosts.cleanUp();
        return hosts.estimatedSize();
    }

    private Admission refused(Pace pace, long lane) {
        return new Admission(null, Duration.ofNanos(pace.queue(nanoClock.getAsLong(), lane)));
    }

    private void waitForStart(Pace site, Turn turn) throws InterruptedException {
        try {
            site.awaitStart(nanoClock);
        } catch (InterruptedException e) {
            turn.close();
            throw e;
        }
    }

    /** Slots at a host and its address; closing hands back how the request went to both paces. */
    private final class Held implements Turn {

        private final Pace site;
        private final @Nullable Pace server;
        private long start = nanoClock.getAsLong();
        private Answer answer = Answer.UNKNOWN;
        private long retryAfter;
        private boolean closed;

        Held(Pace site, @Nullable Pace server) {
            this.site = site;
            this.server = server;
        }

        @Override
        public void answered(FetchOutcome outcome) {
            answer = Answer.of(outcome);
            retryAfter = outcome instanceof FetchFailure failure && failure.retryAfter() != null
                    && failure.retryAfter().isPositive() ? failure.retryAfter().toNanos() : 0;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            long now = nanoClock.getAsLong();
            site.answered(answer, start, now, retryAfter);
            if (server != null) {
                // A Retry-After is one site's word: it does not pause the other names a shared address (a CDN) serves.
                server.answered(answer, start, now, 0);
            }
        }
    }
}
