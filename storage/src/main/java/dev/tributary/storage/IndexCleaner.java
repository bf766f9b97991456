package dev.tributary.storage;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Repairs index tables against the entities, FriendFeed's "cleaner": it walks entities newest
 * first (recent entities are the ones read, and the ones a crash mid-write may have left
 * inconsistent), adds missing index rows and removes stale ones under the same share locks as
 * the back-fill, then sweeps rows whose entity is gone or of another kind.
 */
@Service
public class IndexCleaner {

    /** What one pass did. {@code skipped} counts entities whose body could not be read. */
    public record Report(long checked, long inserted, long deleted, long orphansDeleted, long skipped) {
        Report plus(Report other) {
            return new Report(checked + other.checked, inserted + other.inserted, deleted + other.deleted,
                    orphansDeleted + other.orphansDeleted, skipped + other.skipped);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(IndexCleaner.class);
    private static final Report NOTHING = new Report(0, 0, 0, 0, 0);

    private final IndexRegistry registry;
    private final EntityRows rows;
    private final IndexTables tables;
    private final EntityDecoder decoder;
    private final Transactions tx;
    private final int batchSize;
    private final AtomicBoolean running = new AtomicBoolean();

    IndexCleaner(IndexRegistry registry, EntityRows rows, IndexTables tables, EntityDecoder decoder,
            Transactions tx, StorageSettings settings) {
        this.registry = registry;
        this.rows = rows;
        this.tables = tables;
        this.decoder = decoder;
        this.tx = tx;
        this.batchSize = settings.cleaner().batchSize();
    }

    /** One full pass over every registered index. Safe to run beside writers and other cleaners. */
    public Report clean() {
        Set<String> kinds = registry.indexedKinds();
        if (kinds.isEmpty()) {
            return NOTHING;
        }
        Report report = NOTHING;
        long before = Long.MAX_VALUE;
        while (!Thread.currentThread().isInterrupted()) {
            long cursor = before;
            BatchResult batch = tx.write("clean indexes", () -> cleanBatch(kinds, cursor));
            report = report.plus(batch.report());
            if (batch.size() < batchSize) {
                break;
            }
            before = batch.lastAddedId();
        }
        for (IndexDefinition<?> index : registry.all()) {
            report = report.plus(new Report(0, 0, 0, sweepOrphans(index), 0));
        }
        return report;
    }

    /** The scheduled entry point: skips a pass while another is running, and never throws. */
    void cleanQuietly() {
        if (!running.compareAndSet(false, true)) {
            return;
        }
        try {
            Report report = clean();
            if (report.inserted() + report.deleted() + report.orphansDeleted() > 0) {
                log.warn("index cleaner repaired indexes: {}", report);
            } else {
                log.debug("index cleaner found nothing to repair: {}", report);
            }
        } catch (RuntimeException e) {
            log.error("index cleaner pass failed", e);
        } finally {
            running.set(false);
        }
    }

    private record BatchResult(int size, long lastAddedId, Report report) {}

    private BatchResult cleanBatch(Set<String> kinds, long beforeAddedId) {
        List<EntityRows.Row> batch = rows.newestForShare(kinds, beforeAddedId, batchSize);
        if (batch.isEmpty()) {
            return new BatchResult(0, 0, NOTHING);
        }
        List<Entity<?>> entities = new ArrayList<>(batch.size());
        long skipped = 0;
        for (EntityRows.Row row : batch) {
            try {
                Entity<?> entity = decoder.decodeAny(row);
                if (entity != null) {
                    entities.add(entity);
                }
            } catch (CorruptEntityException e) {
                log.warn("index cleaner skips entity {}: {}", row.id(), e.getMessage());
                skipped++;
            }
        }
        long inserted = 0;
        long deleted = 0;
        for (IndexDefinition<?> index : registry.all()) {
            Diff diff = diff(index, entities);
            deleted += tables.deleteRows(index, diff.stale());
            inserted += tables.insert(index, diff.missing(), true);
        }
        Report report = new Report(batch.size(), inserted, deleted, 0, skipped);
        return new BatchResult(batch.size(), batch.getLast().addedId(), report);
    }

    private record Diff(List<IndexTables.IndexRow> missing, List<IndexTables.IndexRow> stale) {}

    /** Expected rows (from the bodies) against actual rows (from the table) for the batch's entities of the index's kind. */
    @SuppressWarnings("unchecked")
    private <T> Diff diff(IndexDefinition<T> index, List<Entity<?>> entities) {
        Set<IndexTables.IndexRow> expected = new LinkedHashSet<>();
        List<Long> ids = new ArrayList<>();
        for (Entity<?> entity : entities) {
            if (!entity.kind().equals(index.kind())) {
                continue;
            }
            ids.add(entity.id());
            T body = (T) entity.body();
            try {
                for (StoredKey key : index.keysOf(entity.id(), body)) {
                    expected.add(new IndexTables.IndexRow(key, entity.id()));
                }
            } catch (IllegalArgumentException | IllegalStateException e) {
                log.warn("index cleaner cannot compute index {} of entity {}: {}", index.name(), entity.id(), e.getMessage());
                ids.removeLast(); // leave its rows alone rather than delete rows we cannot judge
            }
        }
        if (ids.isEmpty()) {
            return new Diff(List.of(), List.of());
        }
        Set<IndexTables.IndexRow> actual = new HashSet<>(tables.rowsOfEntities(index, ids));
        List<IndexTables.IndexRow> missing = expected.stream().filter(row -> !actual.contains(row)).toList();
        List<IndexTables.IndexRow> stale = actual.stream().filter(row -> !expected.contains(row)).toList();
        return new Diff(missing, stale);
    }

    private long sweepOrphans(IndexDefinition<?> index) {
        long deleted = 0;
        long after = Long.MIN_VALUE;
        while (!Thread.currentThread().isInterrupted()) {
            List<Long> orphans = tables.orphans(index, after, batchSize);
            if (orphans.isEmpty()) {
                break;
            }
            deleted += tx.write("sweep " + index.name(), () -> tables.deleteOrphans(index, orphans));
            after = orphans.getLast();
            if (orphans.size() < batchSize) {
                break;
            }
        }
        return deleted;
    }
}
