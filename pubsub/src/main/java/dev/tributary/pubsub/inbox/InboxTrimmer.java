package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.TimelineSettings;
import dev.tributary.storage.NodeRoles;
import dev.tributary.storage.Transactions;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Trims inboxes that received entries back to the timeline window, in the background: the rows
 * beyond the newest N are locked, deleted, and exactly their unread counts taken off. Runs on
 * nodes with fan-out workers.
 */
@Component
class InboxTrimmer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(InboxTrimmer.class);

    private final Transactions tx;
    private final InboxTable inbox;
    private final InboxTrimQueue queue;
    private final UnreadCounters counters;
    private final TimelineSettings settings;
    private final boolean enabled;
    private ScheduledExecutorService scheduler;

    InboxTrimmer(Transactions tx, InboxTable inbox, InboxTrimQueue queue, UnreadCounters counters,
            TimelineSettings settings, FanoutSettings fanout, NodeRoles roles) {
        this.tx = tx;
        this.inbox = inbox;
        this.queue = queue;
        this.counters = counters;
        this.settings = settings;
        this.enabled = roles.runs(FanoutSettings.ROLE) && fanout.workers() > 0;
    }

    /** Rows per trim transaction, so that trimming a long-neglected inbox never holds many locks. */
    static final int ROWS_PER_TRANSACTION = 2000;

    /** Trims one person's inbox; the number of entries removed. */
    int trim(long userId) {
        int removed = 0;
        int step;
        do {
            step = trimSome(userId);
            removed += step;
        } while (step == ROWS_PER_TRANSACTION);
        return removed;
    }

    private int trimSome(long userId) {
        return tx.write("trim inbox of " + userId, status -> {
            List<InboxRow> rows = inbox.lockBeyondWindow(userId, settings.maxEntries(), ROWS_PER_TRANSACTION);
            inbox.delete(rows);
            List<UnreadDelta> deltas = rows.stream().filter(row -> !row.read()).map(row -> UnreadDelta.of(row, -1)).toList();
            if (!deltas.isEmpty()) {
                counters.apply(deltas, null, List.of());
            }
            return rows.size();
        });
    }

    /** One pass over the people queued since the last; the number of entries removed. */
    int trimQueued() {
        int removed = 0;
        for (long userId : queue.take(settings.trimBatch())) {
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
        long period = settings.trimInterval().toMillis();
        scheduler.scheduleWithFixedDelay(this::pass, period, period, TimeUnit.MILLISECONDS);
    }

    private void pass() {
        try {
            int removed = trimQueued();
            if (removed > 0) {
                log.debug("trimmed {} inbox entries beyond the newest {}", removed, settings.maxEntries());
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
