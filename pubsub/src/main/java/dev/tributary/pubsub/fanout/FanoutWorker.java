package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.DeliveryRules;
import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.RedisFailures;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.inbox.InboxRow;
import dev.tributary.pubsub.pull.PulledFeed;
import dev.tributary.storage.Transactions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionStatus;

/**
 * Runs claimed fan-out tasks batch by batch: the deliveries of one claim to the same audience
 * range (the items of one publish) together, every other task alone. A delivery whose item was
 * tombstoned before it started is dropped (the retraction waits for deliveries, then removes
 * whatever they wrote). A delivery batch reads its page of subscribers and matches their filter
 * rules first, outside any transaction ({@link DeliveryRules#decide}), so rules never run under
 * the locks below. Each batch is then one transaction: record the cursor under the lease (or
 * fence it, for a retraction), write (or delete) the inbox rows through {@link Inbox} (which
 * moves the unread counters and announces the change before the commit, while the rows are
 * locked), commit. A worker that takes over a dead worker's task invalidates the counters of the
 * batch it may have died in.
 */
@Component
class FanoutWorker {

    private static final Logger log = LoggerFactory.getLogger(FanoutWorker.class);
    /** How long a task waits after Redis failed under it, so a Redis outage is not a busy loop. */
    private static final Duration REDIS_BACKOFF = Duration.ofSeconds(5);
    /** How long a task's last batch waits for the page stamps of its earlier batches to move. */
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(10);

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
    private final DeliveryRules rules;
    private final PulledFeed pulled;

    FanoutWorker(Transactions tx, FanoutTasks tasks, Audiences audiences, Inbox inbox, Items items, FanoutSettings settings,
            FanoutMetrics metrics, FanoutSignal signal, DeliveryRules rules, PulledFeed pulled) {
        this.rules = rules;
        this.pulled = pulled;
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
     * Leases the first due task and, of the next {@code limit - 1}, those that run together with
     * it ({@link #groups}); the rest stay for other workers.
     */
    List<FanoutTask> claimGroup(String owner, int limit) {
        return tx.write("claim fan-out tasks", status -> tasks.claim(owner, limit, settings.leaseTtl(), true));
    }

    /** What a group of claimed tasks runs together: deliveries of one claim to the same audience range. */
    private record GroupKey(long audienceSourceId, long cursorUser, long endUser, long leaseToken) {}

    /**
     * Cuts claimed tasks into the groups that run together: deliveries (not taken over) to the
     * same audience range, e.g. the items of one publish; every other task is a group of its own.
     */
    static List<List<FanoutTask>> groups(List<FanoutTask> claimed) {
        Map<Object, List<FanoutTask>> groups = new LinkedHashMap<>();
        for (FanoutTask task : claimed) {
            Object key = task.kind() == FanoutTask.Kind.DELIVER && !task.takenOver()
                    ? new GroupKey(task.audienceSourceId(), task.cursorUser(), task.endUser(), task.leaseToken())
                    : task.id();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(task);
        }
        return List.copyOf(groups.values());
    }

    /**
     * Runs a group from {@link #groups} to the end, batch by batch, as {@link #run(FanoutTask,
     * BooleanSupplier)} runs one task: each batch pages the audience once and writes all of the
     * group's items to that page. If any of them loses its lease, that batch rolls back and the
     * others go on alone.
     */
    void run(List<FanoutTask> group, BooleanSupplier keepGoing) {
        List<FanoutTask> current = new ArrayList<>(group.size());
        if (group.size() == 1) {
            run(group.getFirst(), keepGoing);
            return;
        }
        // One multi-get (of cached decoded items) for the whole group's tombstone check and stories.
        List<Stored<Item>> liveItems = items.getAll(group.stream().map(FanoutTask::itemId).toList());
        Set<Long> live = liveItems.stream().map(Stored::id).collect(Collectors.toSet());
        Map<Long, Long> stories = stories(liveItems);
        for (FanoutTask task : group) {
            if (!live.contains(task.itemId())) {
                tx.run("finish fan-out task", () -> tasks.finish(task));
            } else {
                current.add(task);
            }
        }
        if (current.size() <= 1) {
            current.forEach(task -> run(task, keepGoing));
            return;
        }
        long started = System.nanoTime();
        int rows = 0;
        try {
            while (current.getFirst().cursorUser() != FanoutTask.DONE) {
                if (!keepGoing.getAsBoolean()) {
                    List<FanoutTask> stopped = current;
                    tx.run("release fan-out tasks", () -> stopped.forEach(task -> tasks.release(task, Duration.ZERO)));
                    return;
                }
                Batch batch = runBatch(current, stories);
                rows += batch.rows().size();
                current = current.stream().map(task -> task.advancedTo(batch.cursor()).endingAt(batch.endUser())).toList();
            }
            logDone(current.getFirst(), current.size(), rows, started);
        } catch (LeaseLostException e) {
            log.info("{} in a group of {}: the batch rolled back, each task goes on alone", e.getMessage(), current.size());
            current.forEach(task -> run(task, keepGoing));
        } catch (DataAccessException e) {
            RedisFailures.rethrowUnlessRedis(e);
            log.warn("fan-out tasks {}: Redis failed, handing them back for {}: {}", current.stream().map(FanoutTask::id).toList(),
                    REDIS_BACKOFF, e.toString());
            List<FanoutTask> failed = current;
            tx.run("release fan-out tasks", () -> failed.forEach(task -> tasks.release(task, REDIS_BACKOFF)));
        }
    }

    /**
     * One batch of a group (or of one delivery) in one transaction; the last one also removes the
     * tasks. The common case takes four statements: the subscriber page (before the transaction,
     * with the rules' verdicts), the tasks' progress (which is also the lease check), the insert,
     * the commit. If a row was there already, the batch rolls back whole, before Redis was
     * touched, and runs again with a savepoint that finds exactly the new rows.
     */
    Batch runBatch(List<FanoutTask> group) {
        return runBatch(group, stories(items.getAll(group.stream().map(FanoutTask::itemId).toList())));
    }

    /** As {@link #runBatch(List)}, with the stories of the group's items read once for all its batches. */
    private Batch runBatch(List<FanoutTask> group, Map<Long, Long> stories) {
        FanoutTask first = group.getFirst();
        String what = "fan-out batch of task " + first.id() + (group.size() > 1 ? " and " + (group.size() - 1) + " more" : "");
        // The page and the rules' verdicts before the transaction: matching holds no lock (READ
        // COMMITTED, so the page is what the transaction's first read would have seen).
        Page page = page(group, stories);
        Batch batch;
        try {
            batch = tx.write(what, status -> deliver(group, page, null));
        } catch (Inbox.Conflict conflict) {
            // A person reached by two ways, holding the story already, or a batch redone after a crash.
            batch = tx.write(what, status -> deliver(group, page, status));
        }
        if (batch.endUser() != first.endUser()) {
            signal.wake();
        }
        metrics.rowsDelivered(batch.rows().size());
        return batch;
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
            Map<Long, Long> stories = Map.of();
            if (task.kind() == FanoutTask.Kind.DELIVER) {
                Optional<Stored<Item>> item = items.find(task.itemId());
                if (item.isEmpty()) {
                    // A tombstoned or vanished item is done; its retraction cleans up what was delivered.
                    FanoutTask gone = task;
                    tx.run("finish fan-out task", () -> tasks.finish(gone));
                    return;
                }
                stories = stories(List.of(item.get()));
            }
            while (task.cursorUser() != FanoutTask.DONE) {
                if (!keepGoing.getAsBoolean()) {
                    FanoutTask stopped = task;
                    tx.run("release fan-out task", () -> tasks.release(stopped, Duration.ZERO));
                    return;
                }
                Batch batch = task.kind() == FanoutTask.Kind.DELIVER ? runBatch(List.of(task), stories) : runBatch(task);
                rows += batch.rows().size();
                task = task.advancedTo(batch.cursor()).endingAt(batch.endUser());
            }
            logDone(task, 1, rows, started);
        } catch (LeaseLostException e) {
            log.info("fan-out task {} ({} of item {}): lease lost after {} rows; its new holder goes on",
                    task.id(), task.kind(), task.itemId(), rows);
        } catch (DataAccessException e) {
            RedisFailures.rethrowUnlessRedis(e);
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
        if (task.kind() == FanoutTask.Kind.DELIVER) {
            return runBatch(List.of(task));
        }
        Batch batch = tx.write("fan-out batch of task " + task.id(), status -> {
            tasks.fence(task);
            Batch done = retract(task);
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
        metrics.rowsRetracted(batch.rows().size());
        return batch;
    }

    /** The stories of these items that have one (feed items): a person's inbox holds each once. */
    private static Map<Long, Long> stories(List<Stored<Item>> live) {
        Map<Long, Long> stories = new HashMap<>();
        for (Stored<Item> item : live) {
            if (item.body().story() != null) {
                stories.put(item.id(), item.body().story());
            }
        }
        return stories;
    }

    /**
     * One page of a batch, read before its transaction: the subscribers, the rows they take (each
     * given every item of the group that their media mask takes) and the verdicts of their rules.
     */
    private record Page(List<Subscriber> subscribers, boolean last, List<InboxRow> rows, DeliveryRules.Verdicts verdicts) {}

    /**
     * The page of the group's next batch: so that a batch holds about {@code batch-size} rows
     * whatever the group's size, and each person's counters move once for all of its items.
     */
    private Page page(List<FanoutTask> group, Map<Long, Long> stories) {
        FanoutTask first = group.getFirst();
        int pageSize = Math.max(1, settings.batchSize() / group.size());
        // One subscriber more than a page tells whether this is the last batch, so a task whose
        // audience fits one batch takes one transaction, with no empty batch after it.
        List<Subscriber> fetched = audiences.page(first.audienceSourceId(), first.cursorUser(), first.endUser(), pageSize + 1);
        boolean last = fetched.size() <= pageSize;
        List<Subscriber> page = last ? fetched : fetched.subList(0, pageSize);
        List<InboxRow> rows = new ArrayList<>(page.size() * group.size());
        List<Long> withRules = new ArrayList<>();
        for (Subscriber subscriber : page) {
            if (subscriber.hasRules()) {
                withRules.add(subscriber.userId());
            }
            for (FanoutTask task : group) {
                // One who subscribed after the item was published had it (or not) from the back-fill.
                if (subscriber.takes(task.media()) && task.reaches(subscriber)) {
                    rows.add(new InboxRow(subscriber.userId(), task.itemId(), task.sourceId(), task.media(), false,
                            stories.get(task.itemId())));
                }
            }
        }
        // People's filter rules drop, mark read or star rows before they are counted.
        return new Page(List.copyOf(page), last, rows, rules.decide(rows, withRules));
    }

    /** Writes one page of a group in the caller's transaction. */
    private Batch deliver(List<FanoutTask> group, Page page, @Nullable TransactionStatus savepoints) {
        FanoutTask first = group.getFirst();
        boolean last = page.last();
        long endUser = last || first.cursorUser() != 0 || first.endUser() != FanoutTask.DONE
                ? first.endUser() : split(group, page.subscribers().getLast().userId());
        long cursor = last ? FanoutTask.DONE : page.subscribers().getLast().userId();
        // Progress before the rows: the statement locks the tasks' rows and checks the lease, so
        // a worker that lost it stops here, and nothing it wrote before commits.
        if (last) {
            settleEarlierBatches(first);
            tasks.finish(group);
        } else {
            tasks.advance(group, cursor, settings.leaseTtl());
        }
        List<InboxRow> rows = page.rows();
        if (group.stream().anyMatch(task -> task.audienceSourceId() != task.sourceId())) {
            // A relay's delivery may carry a pulled item its recipients have already read as one.
            rows = pulled.keepingPulledReads(rows);
        }
        DeliveryRules.Plan plan = rules.plan(rows, page.verdicts());
        List<InboxRow> inserted = savepoints == null
                ? inbox.deliverNewItems(plan.rows(), !last) : inbox.deliverItems(plan.rows(), savepoints, !last);
        plan.delivered(inserted);
        return new Batch(cursor, inserted, endUser);
    }

    /**
     * A whole audience larger than one batch, at its first batch: cut the rest into ranges of
     * {@code tributary.fanout.split-size} subscribers, keep the first range and record a task
     * for each other one and each task of the group (in this batch's transaction), so that idle
     * workers share the fan-out. Returns the group's new last subscriber.
     */
    private long split(List<FanoutTask> group, long afterUser) {
        FanoutTask first = group.getFirst();
        List<Long> ends = audiences.rangeEnds(first.audienceSourceId(), afterUser, settings.splitSize(), MAX_SPLIT - 1);
        if (ends.isEmpty()) {
            return first.endUser();
        }
        List<FanoutTasks.NewTask> parts = new ArrayList<>(ends.size() * group.size());
        for (FanoutTask task : group) {
            for (int i = 0; i < ends.size(); i++) {
                long end = i + 1 < ends.size() ? ends.get(i + 1) : FanoutTask.DONE;
                parts.add(new FanoutTasks.NewTask(FanoutTask.Kind.DELIVER, task.itemId(), task.sourceId(),
                        task.audienceSourceId(), task.media(), ends.get(i), end, task.sourceSeq()));
            }
        }
        tasks.add(parts);
        tasks.narrow(group, ends.getFirst());
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

    /**
     * Before a delivery's last batch: waits for the page stamps its earlier batches moved off this
     * thread (their moves lag their commits by a few milliseconds), and the last batch moves its
     * own on this thread once it commits. So when a task is gone, as before, every kept page but
     * those of the last batch's people is void, and theirs are at once after.
     */
    private void settleEarlierBatches(FanoutTask task) {
        if (!inbox.deliveriesSettled(SETTLE_TIMEOUT)) {
            log.warn("fan-out task {}: earlier batches' page stamps were not all moved within {}; kept pages may show it late",
                    task.id(), SETTLE_TIMEOUT);
        }
    }

    private static void logDone(FanoutTask task, int tasks, int rows, long started) {
        long millis = (System.nanoTime() - started) / 1_000_000;
        if (rows >= 10_000 || millis >= 5_000) {
            log.info("fan-out task {} (of {} run together): {} of item {} from source {} via {}: {} inbox rows in {} ms",
                    task.id(), tasks, task.kind(), task.itemId(), task.sourceId(), task.audienceSourceId(), rows, millis);
        } else if (log.isDebugEnabled()) {
            log.debug("fan-out task {} (of {} run together): {} of item {}: {} inbox rows in {} ms", task.id(), tasks, task.kind(),
                    task.itemId(), rows, millis);
        }
    }
}
