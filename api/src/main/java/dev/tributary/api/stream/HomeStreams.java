package dev.tributary.api.stream;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.api.security.Revocations;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.Switches;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.stereotype.Component;
import org.springframework.web.ErrorResponseException;

/**
 * The live streams this node serves. Each listens to its person's Redis channel through the
 * shared listener container (one connection for all; a channel is subscribed while any stream
 * of that person is open), so an event published by any node reaches streams on every node.
 * Each stream has one sender on a virtual thread; a stream ends on disconnect, timeout, error,
 * overflow, when its person opens one too many (their oldest makes way), when the credential it was opened with is revoked
 * (announced on {@link Revocations#CHANNEL} by any node), or at shutdown, and always stops listening. Fan-out announces
 * only to people marked listening ({@link HomeFeed#listening}): a stream marks its person before it subscribes, and
 * this node renews the marks of everyone with a stream open here.
 */
@Component
class HomeStreams implements SmartLifecycle, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(HomeStreams.class);

    private final RedisMessageListenerContainer listeners;
    private final StreamWriter writer;
    private final Switches switches;
    private final StreamSettings settings;
    private final HomeFeed feed;
    private final ExecutorService senders = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("home-stream-", 0).factory());
    /** Renews, for everyone with a stream open here, the mark that they are listening (see {@link HomeFeed#listening}). */
    private final ScheduledExecutorService renewals = Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("home-stream-listening").factory());
    private final AtomicLong serials = new AtomicLong();
    /**
     * Revocations heard lately: a request authenticated just before a revocation may register its
     * stream just after the announcement was handled, and is closed by this instead. A minute
     * outlasts any request's way from authentication to registration.
     */
    private final Cache<String, Boolean> recentlyRevoked = Caffeine.newBuilder()
            .expireAfterWrite(Duration.ofMinutes(1)).maximumSize(100_000).build();
    /** Open streams by person; guarded by {@code this}. */
    private final Map<Long, List<HomeStream>> open = new HashMap<>();
    /** How many streams each client address holds open; guarded by {@code this}. */
    private final Map<String, Integer> byAddress = new HashMap<>();
    private int count;
    private volatile boolean running;

    HomeStreams(RedisMessageListenerContainer listeners, StreamWriter writer, StreamSettings settings,
            MeterRegistry meters, Switches switches, HomeFeed feed) {
        this.feed = feed;
        this.switches = switches;
        this.listeners = listeners;
        this.writer = writer;
        this.settings = settings;
        listeners.addMessageListener(this::revoked, new ChannelTopic(Revocations.CHANNEL));
        long renewEvery = HomeFeed.LISTENING_TTL.toMillis() / 3;
        renewals.scheduleWithFixedDelay(this::renewListening, renewEvery, renewEvery, TimeUnit.MILLISECONDS);
        Gauge.builder("tributary.api.streams", this, HomeStreams::openStreams)
                .description("live home-timeline streams open on this node").register(meters);
    }

    /**
     * Opens a stream of the caller's home timeline from {@code address}: registered and listening,
     * so nothing announced from now on is missed, but sending nothing until {@link #start}. It
     * closes when the credential it was opened with is revoked.
     * @throws ApiProblem 429 when the address holds as many streams on this node as it may, 503 when the node is full
     */
    HomeStream open(Caller caller, String address) {
        long userId = caller.userId();
        HomeStream stream = new HomeStream(userId, address, caller.credential().revocationKeys(), serials.incrementAndGet(),
                pulledSources(userId));
        HomeStream evicted = register(stream);
        if (evicted != null) {
            close(evicted);
        }
        if (caller.credential().revocationKeys().stream().anyMatch(key -> recentlyRevoked.getIfPresent(key) != null)) {
            // Registered after its credential's revocation was handled: the scan could not see it.
            close(stream);
        }
        try {
            // Marked first: fan-out announces only to people marked listening, so nothing is
            // published unheard after the subscription below.
            feed.listening(List.of(userId));
            // Returns once Redis confirmed the subscription: nothing published after this is missed.
            listeners.addMessageListener(stream, stream.topics());
        } catch (RuntimeException redisDown) {
            log.warn("Could not subscribe a live stream of user {}: {}", userId, redisDown.toString());
            close(stream);
            throw unavailable();
        }
        if (stream.closed()) {
            // Closed while subscribing (evicted at once): its close may have run before the listener was added.
            listeners.removeMessageListener(stream, stream.topics());
        }
        return stream;
    }

    /**
     * Starts sending an open stream to {@code output}: first what came after {@code lastEventId},
     * then the counts, announcements and heartbeats, until it closes or reaches its maximum duration.
     */
    void start(HomeStream stream, StreamOutput output, @Nullable Long lastEventId) {
        stream.attach(output);
        if (stream.closed()) {
            return;
        }
        try {
            senders.execute(() -> pump(stream, lastEventId));
        } catch (RejectedExecutionException shuttingDown) {
            close(stream, false);
        }
    }

    /**
     * What to run when a stream must end from a thread that may not wait (a Tomcat thread when its
     * client is gone, the listener container's on a revocation): the close, on a virtual thread,
     * since it unsubscribes from Redis.
     */
    Runnable closer(HomeStream stream) {
        return () -> {
            try {
                senders.execute(() -> close(stream));
            } catch (RejectedExecutionException shuttingDown) {
                close(stream, false);
            }
        };
    }

    /** The pulled sources the person follows (their items are announced per source); none if MySQL cannot say. */
    private List<Long> pulledSources(long userId) {
        try {
            return feed.pulledSources(userId);
        } catch (RuntimeException e) {
            log.warn("Could not read the pulled sources of user {}; their stream hears only pushed entries: {}", userId, e.toString());
            return List.of();
        }
    }

    /**
     * The person followed or left a pulled source: the stream listens to the channels of the
     * pulled sources they follow now. Subscribed before unsubscribed, so nothing of a source kept
     * is missed between.
     */
    private void listenAgain(HomeStream stream) {
        List<ChannelTopic> before = stream.topics();
        List<ChannelTopic> now = stream.topicsFor(pulledSources(stream.userId()));
        List<ChannelTopic> added = now.stream().filter(topic -> !before.contains(topic)).toList();
        List<ChannelTopic> gone = before.stream().filter(topic -> !now.contains(topic)).toList();
        stream.listensTo(now);
        if (!added.isEmpty()) {
            listeners.addMessageListener(stream, added);
        }
        if (!gone.isEmpty()) {
            listeners.removeMessageListener(stream, gone);
        }
    }

    /** Whether this node heard the revocation of {@code key} within the last minute (for tests). */
    boolean revokedRecently(String key) {
        return recentlyRevoked.getIfPresent(key) != null;
    }

    /** The person's streams open on this node (for tests). */
    synchronized int openStreams(long userId) {
        List<HomeStream> mine = open.get(userId);
        return mine == null ? 0 : mine.size();
    }

    /** Streams open on this node (for tests and metrics). */
    synchronized int openStreams() {
        return count;
    }

    /**
     * Closes this node's streams opened with the credential a revocation names. Runs on the
     * listener container's thread, which must not wait on Redis (unsubscribing does): the closes run
     * on virtual threads.
     */
    private void revoked(Message message, byte @Nullable [] pattern) {
        String key = new String(message.getBody(), StandardCharsets.UTF_8);
        // Noted before the scan: a stream registered after the scan finds it (see open).
        recentlyRevoked.put(key, Boolean.TRUE);
        List<HomeStream> ended;
        synchronized (this) {
            ended = open.values().stream().flatMap(List::stream).filter(stream -> stream.openedWith(key)).toList();
        }
        if (!ended.isEmpty()) {
            log.debug("Closing {} live streams of a revoked credential", ended.size());
            ended.forEach(stream -> closer(stream).run());
        }
    }

    /**
     * Takes a slot for the stream; returns the person's oldest stream if this one is one too many
     * for them (it makes way: a client reconnecting before the server noticed its old connection
     * die must get in). A full address is refused instead: its streams are other people's.
     */
    private synchronized @Nullable HomeStream register(HomeStream stream) {
        if (!running || count >= settings.perNode()) {
            throw unavailable();
        }
        List<HomeStream> mine = open.computeIfAbsent(stream.userId(), user -> new ArrayList<>());
        HomeStream oldest = mine.size() >= settings.perPerson()
                ? mine.stream().min(Comparator.comparingLong(HomeStream::serial)).orElseThrow() : null;
        int fromAddress = byAddress.getOrDefault(stream.address(), 0)
                - (oldest != null && oldest.address().equals(stream.address()) ? 1 : 0);
        if (fromAddress >= settings.perAddress()) {
            if (mine.isEmpty()) {
                open.remove(stream.userId());
            }
            throw tooManyFromAddress();
        }
        mine.add(stream);
        byAddress.merge(stream.address(), 1, Integer::sum);
        count++;
        return oldest;
    }

    private synchronized void deregister(HomeStream stream) {
        List<HomeStream> mine = open.get(stream.userId());
        if (mine != null && mine.remove(stream)) {
            count--;
            byAddress.computeIfPresent(stream.address(), (address, n) -> n > 1 ? n - 1 : null);
            if (mine.isEmpty()) {
                open.remove(stream.userId());
            }
        }
    }

    /** Streams open on this node from one client address (for tests). */
    synchronized int openStreamsFrom(String address) {
        return byAddress.getOrDefault(address, 0);
    }

    /**
     * 429 with the rate-limit headers of the address's share. A slot frees when one of its streams
     * ends; a dead client's is found by the next heartbeat, so that is the wait asked for.
     */
    private ApiProblem tooManyFromAddress() {
        long retry = Math.max(1, settings.heartbeat().toSeconds());
        ApiProblem problem = ApiProblem.tooManyRequests("This address holds " + settings.perAddress()
                + " live streams on this server, as many as one address may; close one, or try again in " + retry + " s.",
                retry);
        problem.getHeaders().set("RateLimit-Limit", Integer.toString(settings.perAddress()));
        problem.getHeaders().set("RateLimit-Remaining", "0");
        problem.getHeaders().set("RateLimit-Reset", Long.toString(retry));
        return problem;
    }

    void close(HomeStream stream) {
        close(stream, true);
    }

    private void close(HomeStream stream, boolean unsubscribe) {
        if (!stream.close()) {
            return;
        }
        deregister(stream);
        if (!unsubscribe) {
            // Shutting down: the listener container drops every subscription itself (Redis may already be gone).
            return;
        }
        try {
            listeners.removeMessageListener(stream, stream.topics());
        } catch (RuntimeException e) {
            // Redis is unreachable: the container resubscribes only the listeners it still holds, and this one is gone.
            log.warn("Could not unsubscribe the live stream of user {} from Redis: {}", stream.userId(), e.toString());
        }
    }

    /**
     * Sends until the stream closes or has lasted its maximum duration: the replay, the current
     * counts, then announcements and heartbeats.
     */
    private void pump(HomeStream stream, @Nullable Long lastEventId) {
        long endsAt = System.nanoTime() + settings.maxDuration().toNanos();
        try {
            Set<Long> replayed = lastEventId == null ? Set.of() : writer.replay(stream, lastEventId);
            writer.unread(stream);
            for (List<InboxEvent> batch; (batch = stream.next(idle(endsAt))) != null; ) {
                if (System.nanoTime() - endsAt >= 0) {
                    break; // lasted its time: the client resumes with Last-Event-ID
                }
                if (!switches.isOn(Feature.LIVE_STREAMS)) {
                    break; // switched off under load: open streams end by their next event or heartbeat
                }
                if (batch.stream().anyMatch(event -> event.type() == InboxEvent.Type.SOURCES)) {
                    listenAgain(stream);
                }
                if (batch.isEmpty()) {
                    writer.heartbeat(stream);
                } else {
                    writer.send(stream, batch, replayed);
                }
            }
        } catch (IOException | IllegalStateException clientGone) {
            // The client went away or the request ended: the usual end of a stream.
        } catch (InterruptedException shutdown) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            if (Thread.currentThread().isInterrupted() || stream.closed()) {
                // Ended mid-read by shutdown or by its own close (the read was interrupted): not a failure.
                log.debug("Live stream of user {} ended while reading: {}", stream.userId(), e.toString());
            } else {
                log.warn("Live stream of user {} failed", stream.userId(), e);
            }
        } finally {
            close(stream);
        }
    }

    /** The wait for the next announcement: a heartbeat's interval, or less at the end of the stream's time. */
    private Duration idle(long endsAt) {
        long left = endsAt - System.nanoTime();
        return Duration.ofNanos(Math.max(1, Math.min(settings.heartbeat().toNanos(), left)));
    }

    private static ErrorResponseException unavailable() {
        return ApiProblem.unavailable("Live streams are not available on this node right now; try again shortly.", 5);
    }

    /**
     * Renews the listening marks of everyone with a stream open on this node, in one round trip,
     * at a third of their lifetime, so that a renewal may fail or be late twice before a mark lapses
     * (and at once, for tests).
     */
    void renewListening() {
        List<Long> people;
        synchronized (this) {
            people = List.copyOf(open.keySet());
        }
        try {
            feed.listening(people);
        } catch (RuntimeException e) {
            log.warn("Could not renew the listening marks of {} people with live streams: {}", people.size(), e.toString());
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /** Ends every stream before the web server's graceful shutdown, which would otherwise wait for them. */
    @Override
    public void stop() {
        running = false;
        List<HomeStream> all;
        synchronized (this) {
            all = open.values().stream().flatMap(List::stream).toList();
        }
        all.forEach(stream -> close(stream, false));
    }

    /**
     * Not stopped when a test framework pauses an idle context: stopping leaves the closed
     * streams' listeners to the container (shutdown only), which would subscribe them again on
     * restart. Their clients are gone with the paused web server; heartbeats find that out.
     */
    @Override
    public boolean isPauseable() {
        return false;
    }

    @Override
    public void destroy() {
        renewals.shutdownNow();
        senders.shutdownNow();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
