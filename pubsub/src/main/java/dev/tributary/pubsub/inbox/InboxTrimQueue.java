package dev.tributary.pubsub.inbox;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * People whose inbox received entries since the last trim: a Redis set that every node's trimmer
 * takes from, fed from a set on each node that gathers the people of many deliveries and is
 * flushed every second (and before this node's trimmer takes). So a fan-out batch adds to memory
 * instead of waiting on a Redis call, and a person who gets many items a second is sent once.
 * Only a hint: losing it (a node that dies before its flush, a Redis restart) leaves inboxes
 * longer than the window on disk for a while, never a wrong timeline, because timeline reads
 * bound themselves to the newest N entries anyway.
 */
@Component
class InboxTrimQueue implements SmartLifecycle {

    static final String KEY = "tributary:inbox:trim";
    /**
     * People gathered before an adder asks the flusher to send them at once, not at its next
     * second; four times as many and new ones are dropped, which bounds the node's set if Redis is away.
     */
    private static final int MAX_PENDING = 100_000;
    private static final int PER_CALL = 1000;
    private static final long FLUSH_EVERY_MILLIS = 1000;

    private static final Logger log = LoggerFactory.getLogger(InboxTrimQueue.class);

    private final StringRedisTemplate redis;
    private final Set<Person> pending = ConcurrentHashMap.newKeySet();
    /** A flush is on its way to the flusher thread, asked for by an adder that found the set full. */
    private final AtomicBoolean flushing = new AtomicBoolean();
    private volatile ScheduledExecutorService flusher;

    InboxTrimQueue(StringRedisTemplate redis) {
        this.redis = redis;
    }

    void add(Collection<Long> users) {
        int size = pending.size();
        if (size >= MAX_PENDING * 4) {
            // Redis has not taken the set for a while: drop the hint rather than the node's memory.
            return;
        }
        users.forEach(user -> pending.add(new Person(user)));
        if (size + users.size() > MAX_PENDING && flushing.compareAndSet(false, true)) {
            ScheduledExecutorService running = flusher;
            if (running != null) {
                running.execute(this::flushQuietly);
            } else {
                flushQuietly();
            }
        }
    }

    /** Sends the people gathered on this node to the shared set. */
    void flush() {
        List<String> batch = new ArrayList<>(PER_CALL);
        for (Person user : pending) {
            // Removed before it is sent: a person added again meanwhile is simply sent again.
            if (pending.remove(user)) {
                batch.add(Long.toString(user.id()));
            }
            if (batch.size() == PER_CALL) {
                send(batch);
                batch = new ArrayList<>(PER_CALL);
            }
        }
        if (!batch.isEmpty()) {
            send(batch);
        }
    }

    private void send(List<String> users) {
        try {
            redis.opsForSet().add(KEY, users.toArray(String[]::new));
        } catch (DataAccessException e) {
            users.forEach(user -> pending.add(new Person(Long.parseLong(user))));
            throw e;
        }
    }

    long size() {
        Long size = redis.opsForSet().size(KEY);
        return pending.size() + (size == null ? 0 : size);
    }

    /** Takes up to {@code count} people off the queue, this node's gathered ones included. */
    List<Long> take(int count) {
        flush();
        List<String> taken = redis.opsForSet().pop(KEY, count);
        return taken == null ? List.of() : taken.stream().map(Long::valueOf).toList();
    }

    @Override
    public void start() {
        flusher = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("inbox-trim-queue").daemon(true).factory());
        flusher.scheduleWithFixedDelay(this::flushQuietly, FLUSH_EVERY_MILLIS, FLUSH_EVERY_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void flushQuietly() {
        try {
            flush();
            flushing.set(false);
        } catch (DataAccessException e) {
            log.warn("could not queue {} inboxes for trimming; trying again in a second: {}", pending.size(), e.toString());
        }
    }

    @Override
    public void stop() {
        if (flusher != null) {
            // No last flush: at shutdown Redis may be going too, and a call to it could hang the
            // exit; the people gathered since the last second are a hint, lost like any other.
            flusher.shutdownNow();
            flusher = null;
        }
    }

    @Override
    public boolean isRunning() {
        return flusher != null;
    }

    /**
     * A person in the node's set: ids made in bulk differ in their low bits by a counter and share
     * their high bits, which {@link Long#hashCode} folds into few buckets (the set's bins turned to
     * trees, a tenth of a fan-out worker's time); a multiplicative hash spreads them.
     */
    private record Person(long id) {
        @Override
        public int hashCode() {
            return Long.hashCode(id * 0x9E3779B97F4A7C15L);
        }
    }
}
