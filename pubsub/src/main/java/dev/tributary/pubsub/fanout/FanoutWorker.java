package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.inbox.InboxRow;
import dev.tributary.storage.Transactions;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionStatus;

/**
 * Runs one claimed fan-out task batch by batch. A delivery whose item was tombstoned before it
 * started is dropped (the retraction waits for deliveries, then removes whatever they wrote).
 * Each batch is one transaction: fence the lease, write (or delete) the inbox rows through
 * {@link Inbox} (which moves the unread counters and announces the change before the commit,
 * while the rows are locked), record the cursor, commit. A worker that takes over a dead
 * worker's task invalidates the counters of the batch it may have died in.
 */
@Component
class FanoutWorker {

    private static final Logger log = LoggerFactory.getLogger(FanoutWorker.class);
    /** How long a task waits after Redis failed under it, so a Redis outage is not a busy loop. */
    private static final Duration REDIS_BACKOFF = Duration.ofSeconds(5);

    /** What one committed batch did, and the range its task has left. */
    record Batch(long cursor, List<InboxRow> rows, long endUser) {}

    /** At most this many tasks come out of splitting one audience. */
    private static final int MAX_SPLIT = 64;

    private final Transactions tx;
    private final FanoutTasks tasks;
    private final Audiences audiences;
    private final Inbox inbox;
    private final Items items;
    private final FanoutSettings settings;
    private final FanoutMetrics metrics;
    private final FanoutSignal signal;

    FanoutWorker(Transactions tx, FanoutTasks tasks, Audiences audiences, Inbox inbox, Items items, FanoutSettings settings,
            FanoutMetrics metrics, FanoutSignal signal) {
        this.signal = signal;
        this.metrics = metrics;
        this.tx = tx;
        this.tasks = tasks;
        this.audiences = audiences;
        this.inbox = inbox;
        this.items = items;
        this.settings = settings;
    }

    /** Leases up to {@code limit} due tasks to {@code owner}. */
    List<FanoutTask> claim(String owner, int limit) {
        return tx.write("claim fan-out tasks", status -> tasks.claim(owner, limit, settings.leaseTtl()));
    }

    /**
     * Runs the task to the end, or until {@code keepGoing} turns false (it is then handed back).
     * A lost lease ends it quietly: its new holder carries on.
     */
    void run(FanoutTask claimed, BooleanSupplier keepGoing) {
        long started = System.nanoTime();
        int rows = 0;
        FanoutTask task = claimed;
        try {
            if (task.takenOver()) {
                recover(task);
            }
            if (task.kind() == FanoutTask.Kind.DELIVER && !deliverable(task)) {
                // A tombstoned or vanished item is done; its retraction cleans up what was delivered.
                FanoutTask gone = task;
                tx.run("finish fan-out task", () -> tasks.finish(gone));
                return;
            }
            while (task.cursorUser() != FanoutTask.DONE) {
                if (!keepGoing.getAsBoolean()) {
                    FanoutTask stopped = task;
                    tx.run("release fan-out task", () -> tasks.release(stopped, Duration.ZERO));
                    return;
                }
                Batch batch = runBatch(task);
                rows += batch.rows().size();
                task = task.advancedTo(batch.cursor()).endingAt(batch.endUser());
            }
            logDone(task, rows, started);
        } catch (LeaseLostException e) {
            log.info("fan-out task {} ({} of item {}): lease lost after {} rows; its new holder goes on",
                    task.id(), task.kind(), task.itemId(), rows);
        } catch (DataAccessException e) {
            if (!isRedis(e)) {
                throw e;
            }
            log.warn("fan-out task {}: Redis failed, handing the task back for {}: {}", task.id(), REDIS_BACKOFF, e.toString());
            FanoutTask failed = task;
            tx.run("release fan-out task", () -> tasks.release(failed, REDIS_BACKOFF));
        }
    }

    /**
     * One batch in one transaction; the last one also removes the task. Exposed to tests, which
     * stop between batches to play a crash.
     */
    Batch runBatch(FanoutTask task) {
        Batch batch = tx.write("fan-out batch of task " + task.id(), status -> {
            tasks.fence(task);
            Batch done = task.kind() == FanoutTask.Kind.DELIVER ? deliver(task, status) : retract(task);
            if (done.cursor() == FanoutTask.DONE) {
                tasks.finish(task);
            } else {
                tasks.advance(task, done.cursor(), settings.leaseTtl());
            }
            return done;
        });
        if (batch.endUser() != task.endUser()) {
            signal.wake();
        }
        if (task.kind() == FanoutTask.Kind.DELIVER) {
            metrics.rowsDelivered(batch.rows().size());
        } else {
            metrics.rowsRetracted(batch.rows().size());
        }
        return batch;
    }

    private boolean deliverable(FanoutTask task) {
        return items.find(task.itemId()).isPresent();
    }

    private Batch deliver(FanoutTask task, TransactionStatus status) {
        // One subscriber more than a batch tells whether this is the last batch, so a task whose
        // audience fits one batch takes one transaction, with no empty batch after it.
        List<Subscriber> fetched = audiences.page(task.audienceSourceId(), task.cursorUser(), task.endUser(),
                settings.batchSize() + 1);
        boolean last = fetched.size() <= settings.batchSize();
        List<Subscriber> page = last ? fetched : fetched.subList(0, settings.batchSize());
        long endUser = last || task.cursorUser() != 0 || task.endUser() != FanoutTask.DONE
                ? task.endUser() : split(task, page.getLast().userId());
        List<InboxRow> rows = page.stream()
                .filter(subscriber -> subscriber.takes(task.media()))
                .map(subscriber -> new InboxRow(subscriber.userId(), task.itemId(), task.sourceId(), task.media(), false))
                .toList();
        List<InboxRow> inserted = inbox.deliver(rows, status, new InboxEvent(InboxEvent.Type.ITEM, task.itemId()));
        return new Batch(last ? FanoutTask.DONE : page.getLast().userId(), inserted, endUser);
    }

    /**
     * A whole audience larger than one batch, at its first batch: cut the rest into ranges of
     * {@code tributary.fanout.split-size} subscribers, keep the first range and record a task
     * for each other one (in this batch's transaction), so that idle workers share the fan-out.
     * Returns this task's new last subscriber.
     */
    private long split(FanoutTask task, long afterUser) {
        List<Long> ends = audiences.rangeEnds(task.audienceSourceId(), afterUser, settings.splitSize(), MAX_SPLIT - 1);
        if (ends.isEmpty()) {
            return task.endUser();
        }
        List<FanoutTasks.NewTask> parts = new java.util.ArrayList<>(ends.size());
        for (int i = 0; i < ends.size(); i++) {
            long end = i + 1 < ends.size() ? ends.get(i + 1) : FanoutTask.DONE;
            parts.add(new FanoutTasks.NewTask(FanoutTask.Kind.DELIVER, task.itemId(), task.sourceId(), task.audienceSourceId(),
                    task.media(), ends.get(i), end));
        }
        tasks.add(parts);
        tasks.narrow(task, ends.getFirst());
        return ends.getFirst();
    }

    private Batch retract(FanoutTask task) {
        List<InboxRow> rows = inbox.retract(task.itemId(), task.cursorUser(), settings.batchSize());
        long cursor = rows.size() < settings.batchSize() ? FanoutTask.DONE : rows.getLast().userId();
        return new Batch(cursor, rows, task.endUser());
    }

    /**
     * The previous holder died: its last batch may have moved counters in Redis and then never
     * committed. Those people are the next page after the cursor; their counters are dropped and
     * rebuild exactly on the next read.
     */
    private void recover(FanoutTask task) {
        List<Long> users = task.kind() == FanoutTask.Kind.DELIVER
                ? audiences.page(task.audienceSourceId(), task.cursorUser(), task.endUser(), settings.batchSize()).stream()
                        .map(Subscriber::userId).toList()
                : inbox.recipientsAfter(task.itemId(), task.cursorUser(), settings.batchSize());
        inbox.invalidateCounters(users);
        log.info("fan-out task {} ({} of item {}) taken over at attempt {}: counters of {} people invalidated",
                task.id(), task.kind(), task.itemId(), task.attempts(), users.size());
    }

    private static boolean isRedis(Exception e) {
        return e.getClass().getName().startsWith("org.springframework.data.redis");
    }

    private static void logDone(FanoutTask task, int rows, long started) {
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (rows >= 10_000 || millis >= 5_000) {
            log.info("fan-out task {}: {} of item {} from source {} via {}: {} inbox rows in {} ms",
                    task.id(), task.kind(), task.itemId(), task.sourceId(), task.audienceSourceId(), rows, millis);
        } else if (log.isDebugEnabled()) {
            log.debug("fan-out task {}: {} of item {}: {} inbox rows in {} ms", task.id(), task.kind(), task.itemId(), rows, millis);
        }
    }
}
