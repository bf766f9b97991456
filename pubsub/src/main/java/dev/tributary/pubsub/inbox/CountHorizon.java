package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.TimelineSettings;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.Transactions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The count horizon W (table {@code count_horizon}): the item id at or below which fan-out moves
 * unread counters. Every person's hash counts their entries up to their own horizon, never above
 * W, and reads count the entries above it from the inbox; so a batch of an item above W moves no
 * counter at all. A batch reads W with a shared lock ({@link #forBatch}); raising W takes the
 * row's exclusive lock and so waits for every batch that read the old value to commit. Once a
 * raised W can be read, no batch that skipped its counters for an item at or below it is still
 * uncommitted, and a person's count up to it is exact. Each node raises W every interval
 * ({@code tributary.timeline.count-horizon-*}) to {@code now − lag}, but not past an item whose
 * fan-out is still pending (so a backlog's batches move no counter either), unless that item is
 * older than {@code now − max-lag} (so a stuck task does not make every read count ever more).
 */
@Component
class CountHorizon implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CountHorizon.class);
    /**
     * How long a raise waits for the batches holding the row before it gives up until the next
     * interval: batches that ask for the row meanwhile queue behind the raise, so a batch stuck
     * with the row must not hold up fan-out for InnoDB's default 50 s.
     */
    private static final int RAISE_LOCK_WAIT_SECONDS = 5;

    private final JdbcClient jdbc;
    private final Transactions tx;
    private final Clock clock;
    private final Duration lag;
    private final Duration maxLag;
    private final FanoutBacklog backlog;
    private final Duration interval;
    /** The highest W this node has seen committed: a fold may go up to it. */
    private final AtomicLong known = new AtomicLong();
    private volatile ScheduledExecutorService raiser;

    CountHorizon(JdbcClient jdbc, Transactions tx, TimelineSettings settings, FanoutBacklog backlog) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.backlog = backlog;
        this.clock = Clock.systemUTC();
        this.lag = settings.countHorizonLag();
        this.maxLag = settings.countHorizonMaxLag();
        this.interval = settings.countHorizonInterval();
    }

    /**
     * W, read with a shared lock held until the caller's transaction ends: call it inside a fan-out
     * batch's transaction before it writes a row (so a batch waiting for the lock holds no row lock
     * another batch could wait for).
     */
    long forBatch() {
        long horizon = jdbc.sql("SELECT item_id FROM count_horizon WHERE id = 1 LOCK IN SHARE MODE").query(Long.class).single();
        known.accumulateAndGet(horizon, Math::max);
        return horizon;
    }

    /**
     * Returns once every fan-out batch that read W before this call has committed: W's exclusive
     * lock waits for their shared ones, and is released at once. A batch that reads W after it
     * sees whatever Redis held before this call (a promotion, see {@link UnreadCounters}). Call
     * it outside any transaction.
     */
    void barrier() {
        // An update that changes nothing takes the row's exclusive lock as a raise does (Connector/J
        // refuses a SET STATEMENT … FOR SELECT as a query).
        tx.run("wait for the fan-out batches in flight", () -> updateLocked("item_id"));
    }

    /**
     * Sets W to {@code value} under the row's exclusive lock, waiting for it at most
     * {@link #RAISE_LOCK_WAIT_SECONDS}: inside the caller's transaction, which holds it to its end.
     */
    private void updateLocked(String value, Object... params) {
        jdbc.sql("SET STATEMENT innodb_lock_wait_timeout = " + RAISE_LOCK_WAIT_SECONDS
                + " FOR UPDATE count_horizon SET item_id = " + value + " WHERE id = 1").params(params).update();
    }

    /** A W that has been committed: the highest this node has seen, without a read. */
    long known() {
        return known.get();
    }

    /**
     * Raises W (never lowers it) to the lowest id of {@code now − lag}, or to just below the oldest
     * item whose fan-out is pending if that is lower, but at least to {@code now − max-lag}; the
     * value after.
     */
    long raise() {
        return raiseTo(target(clock.instant(), backlog.oldestItem()));
    }

    /** Where {@link #raise} takes W at {@code now} with the oldest pending item {@code pending}. */
    long target(Instant now, OptionalLong pending) {
        long lagged = IdGenerator.lowestIdAt(now.minus(lag));
        if (pending.isEmpty()) {
            return lagged;
        }
        return Math.max(Math.min(lagged, pending.getAsLong() - 1), IdGenerator.lowestIdAt(now.minus(maxLag)));
    }

    /** Raises W to {@code itemId} if it is lower, waiting for the batches that hold it; the value after. */
    long raiseTo(long itemId) {
        // A raise that would not move W skips the exclusive lock, which would wait for every batch in flight.
        long current = jdbc.sql("SELECT item_id FROM count_horizon WHERE id = 1").query(Long.class).single();
        if (current >= itemId) {
            known.accumulateAndGet(current, Math::max);
            return current;
        }
        long horizon = tx.write("raise the count horizon", () -> {
            updateLocked("GREATEST(item_id, ?)", itemId);
            return jdbc.sql("SELECT item_id FROM count_horizon WHERE id = 1").query(Long.class).single();
        });
        known.accumulateAndGet(horizon, Math::max);
        return horizon;
    }

    private void raiseQuietly() {
        try {
            raise();
        } catch (RuntimeException e) {
            log.warn("could not raise the count horizon; trying again in {}: {}", interval, e.toString());
        }
    }

    @Override
    public void start() {
        raiser = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("count-horizon").daemon(true).factory());
        raiser.scheduleWithFixedDelay(this::raiseQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (raiser != null) {
            raiser.shutdownNow();
            raiser = null;
        }
    }

    @Override
    public boolean isRunning() {
        return raiser != null;
    }
}
