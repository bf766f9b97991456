package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.InboxSettings;
import dev.tributary.pubsub.TimelineSettings;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.NodeRoles;
import dev.tributary.storage.Transactions;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Trims inboxes that received entries back to the unread horizon ({@code tributary.inbox.*}), in
 * the background: first every entry whose item is older than {@code keep}, then, past
 * {@code max-entries}, the oldest read entries and only then the oldest unread, but never the
 * newest {@code min-unread-per-source} unread entries of any source. Each step is one
 * transaction of at most {@link #ROWS_PER_TRANSACTION} locked rows: they are deleted, exactly
 * their unread counts taken off, and the unread ones added to the person's
 * {@code trimmed_unread} (in {@code inbox_trimmed} and the counters alike). Runs on nodes with
 * fan-out workers.
 */
@Component
class InboxTrimmer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(InboxTrimmer.class);

    /** Rows per trim transaction, so that trimming a long-neglected inbox never holds many locks for long. */
    static final int ROWS_PER_TRANSACTION = 1000;
    /** Steps per person per pass: bounds one pass even if fan-out keeps filling the inbox as it trims. */
    private static final int MAX_STEPS = 1000;
    private static final InboxEvent UNREAD = new InboxEvent(InboxEvent.Type.UNREAD, 0);

    private final Transactions tx;
    private final InboxTable inbox;
    private final InboxTrimQueue queue;
    private final UnreadCounters counters;
    private final TimelineSettings timeline;
    private final InboxSettings horizon;
    private final Clock clock;
    private final boolean enabled;
    private ScheduledExecutorService scheduler;

    InboxTrimmer(Transactions tx, InboxTable inbox, InboxTrimQueue queue, UnreadCounters counters,
            TimelineSettings timeline, InboxSettings horizon, FanoutSettings fanout, NodeRoles roles,
            ObjectProvider<Clock> clock) {
        this.tx = tx;
        this.inbox = inbox;
        this.queue = queue;
        this.counters = counters;
        this.timeline = timeline;
        this.horizon = horizon;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
        this.enabled = roles.runs(FanoutSettings.ROLE) && fanout.workers() > 0;
    }

    /** Trims one person's inbox to the horizon; the number of entries removed. */
    int trim(long userId) {
        long floor = IdGenerator.lowestIdAt(clock.instant().minus(horizon.keep()));
        int removed = 0;
        for (int steps = 0; steps < MAX_STEPS; steps++) {
            int step = trimSome(userId, floor);
            if (step == 0) {
                break;
            }
            removed += step;
        }
        return removed;
    }

    /** One transaction: the oldest entries past the age, else past the count (read ones first). */
    private int trimSome(long userId, long floor) {
        return tx.write("trim inbox of " + userId, status -> {
            List<InboxRow> rows = inbox.lockOlderThan(userId, floor, ROWS_PER_TRANSACTION);
            if (rows.isEmpty()) {
                int excess = inbox.count(userId) - horizon.maxEntries();
                if (excess <= 0) {
                    return 0;
                }
                int limit = Math.min(excess, ROWS_PER_TRANSACTION);
                rows = inbox.lockOldest(userId, true, limit);
                if (rows.isEmpty()) {
                    // Each source keeps its newest unread: a cap never empties a whole feed (issue 45).
                    rows = inbox.lockOldestUnreadBeyond(userId, horizon.minUnreadPerSource(), limit);
                }
            }
            inbox.delete(rows);
            List<UnreadDelta> deltas = rows.stream().filter(row -> !row.read()).map(row -> UnreadDelta.of(row, -1)).toList();
            if (!deltas.isEmpty()) {
                inbox.addTrimmedUnread(userId, deltas.size());
                counters.apply(deltas, Map.of(userId, (long) deltas.size()), UNREAD, List.of(userId));
            }
            return rows.size();
        });
    }

    /** One pass over the people queued since the last; the number of entries removed. */
    int trimQueued() {
        int removed = 0;
        for (long userId : queue.take(timeline.trimBatch())) {
            removed += trim(userId);
        }
        return removed;
    }

    @Override
    public void start() {
        if (!enabled) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("inbox-trimmer").daemon(true).factory());
        long period = timeline.trimInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::pass, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Trims queued people batch after batch until the queue is empty or the pass has run for one
     * interval, so that under heavy fan-out trimming keeps pace instead of taking one batch per interval.
     */
    private void pass() {
        try {
            long deadline = System.nanoTime() + timeline.trimInterval().toNanos();
            int removed = 0;
            do {
                removed += trimQueued();
            } while (queue.size() > 0 && System.nanoTime() - deadline < 0);
            if (removed > 0) {
                log.debug("trimmed {} inbox entries past the horizon ({} entries, {})", removed, horizon.maxEntries(), horizon.keep());
            }
        } catch (RuntimeException e) {
            log.warn("inbox trim pass failed: {}", e.toString(), e);
        }
    }

    @Override
    public void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }
}
