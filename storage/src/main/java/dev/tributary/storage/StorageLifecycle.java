package dev.tributary.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Start-up and background work of the index machinery: before anything runs, every declared
 * index must have its table (fail fast, naming the DDL to add); then indexes not yet ready are
 * back-filled in the background and the cleaner is scheduled, each if enabled.
 */
@Component
final class StorageLifecycle implements SmartInitializingSingleton, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(StorageLifecycle.class);

    private final IndexRegistry registry;
    private final IndexStates states;
    private final IndexTables tables;
    private final IndexBackfill backfill;
    private final IndexCleaner cleaner;
    private final DeferredIndexes deferred;
    private final StorageTasks tasks;
    private final StorageSettings settings;
    private final List<Future<?>> running = new ArrayList<>();
    private volatile boolean started;

    StorageLifecycle(IndexRegistry registry, IndexStates states, IndexTables tables, IndexBackfill backfill,
            IndexCleaner cleaner, DeferredIndexes deferred, StorageTasks tasks, StorageSettings settings) {
        this.deferred = deferred;
        this.registry = registry;
        this.states = states;
        this.tables = tables;
        this.backfill = backfill;
        this.cleaner = cleaner;
        this.tasks = tasks;
        this.settings = settings;
    }

    /** After every bean exists (so tables a test or migration creates are there), before any lifecycle starts. */
    @Override
    public void afterSingletonsInstantiated() {
        List<String> problems = new ArrayList<>();
        for (IndexDefinition<?> index : registry.all()) {
            String problem = tables.checkTable(index);
            if (problem != null) {
                problems.add("index '" + index.name() + "': " + problem);
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("declared indexes without usable tables:\n" + String.join("\n", problems));
        }
        for (IndexDefinition<?> index : registry.all()) {
            states.register(index);
        }
    }

    @Override
    public synchronized void start() {
        if (settings.backfillOnStartup()) {
            List<IndexDefinition<?>> pending = registry.all().stream()
                    .filter(index -> !states.find(index.name()).orElseThrow().ready())
                    .toList();
            if (!pending.isEmpty()) {
                running.add(tasks.submit(() -> backfillAll(pending)));
            }
        }
        if (registry.all().stream().anyMatch(IndexDefinition::isDeferred)) {
            running.add(tasks.every(settings.deferredIndexInterval(), deferred::drainQuietly));
        }
        if (settings.cleaner().enabled()) {
            ScheduledFuture<?> schedule = tasks.afterDelayEvery(settings.cleaner().interval(), cleaner::cleanQuietly);
            running.add(schedule);
        }
        started = true;
    }

    private void backfillAll(List<IndexDefinition<?>> pending) {
        for (IndexDefinition<?> index : pending) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
            try {
                backfill.run(index);
            } catch (RuntimeException e) {
                log.error("back-fill of index {} failed; it stays not ready until a restart or a direct run", index.name(), e);
            }
        }
    }

    @Override
    public synchronized void stop() {
        running.forEach(future -> future.cancel(true));
        running.clear();
        started = false;
    }

    @Override
    public boolean isRunning() {
        return started;
    }
}
