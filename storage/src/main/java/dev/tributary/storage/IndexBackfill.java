package dev.tributary.storage;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Fills a new index from the entities already stored, while writes go on and without ALTER TABLE.
 * Writers maintain the index from the moment it is registered; this walks the older entities
 * (by added_id, up to the high-water mark fixed at the start) in share-locked batches, so a put
 * or delete of an entity in the batch serialises with it, and records its cursor after each
 * batch so that a back-fill cut short resumes where it stopped.
 */
@Service
public class IndexBackfill {

    /** What one run did: entities read, index rows added, entities skipped as unreadable. */
    public record Report(String index, long entities, long rowsInserted, long skipped, boolean alreadyReady) {}

    private static final Logger log = LoggerFactory.getLogger(IndexBackfill.class);

    private final IndexRegistry registry;
    private final IndexStates states;
    private final EntityRows rows;
    private final IndexTables tables;
    private final BodyCodec codec;
    private final Transactions tx;
    private final int batchSize;

    IndexBackfill(IndexRegistry registry, IndexStates states, EntityRows rows, IndexTables tables,
            BodyCodec codec, Transactions tx, StorageSettings settings) {
        this.registry = registry;
        this.states = states;
        this.rows = rows;
        this.tables = tables;
        this.codec = codec;
        this.tx = tx;
        this.batchSize = settings.backfillBatchSize();
    }

    /**
     * Back-fills {@code index} (registering it on this node first if it is not a bean) and marks
     * it ready. Returns at once if it is ready already. Stops early, leaving it back-filling, if
     * the thread is interrupted.
     */
    public <T> Report run(IndexDefinition<T> index) {
        String problem = tables.checkTable(index);
        if (problem != null) {
            throw new IllegalStateException("index '" + index.name() + "': " + problem);
        }
        // Order matters: writers on this node must maintain the index before the high-water mark is read.
        registry.register(index);
        IndexStates.State state = states.register(index);
        if (state.ready()) {
            return new Report(index.name(), 0, 0, 0, true);
        }
        long highWater = state.highWater() != null ? state.highWater() : states.highWater(index.name(), rows.maxAddedId());
        long cursor = state.cursor();
        long entities = 0;
        long inserted = 0;
        long skipped = 0;
        log.info("back-filling index {} from added_id {} to {}", index.name(), cursor, highWater);
        while (cursor < highWater) {
            if (Thread.currentThread().isInterrupted()) {
                log.info("back-fill of index {} interrupted at added_id {}; it resumes there", index.name(), cursor);
                return new Report(index.name(), entities, inserted, skipped, false);
            }
            long from = cursor;
            Batch batch = tx.write("back-fill " + index.name(), () -> backfillBatch(index, from, highWater));
            entities += batch.entities();
            inserted += batch.inserted();
            skipped += batch.skipped();
            if (batch.entities() < batchSize) {
                break;
            }
            cursor = batch.lastAddedId();
        }
        states.markReady(index.name());
        log.info("index {} is ready: {} entities, {} rows back-filled, {} unreadable entities skipped",
                index.name(), entities, inserted, skipped);
        return new Report(index.name(), entities, inserted, skipped, false);
    }

    private record Batch(int entities, int inserted, int skipped, long lastAddedId) {}

    private <T> Batch backfillBatch(IndexDefinition<T> index, long afterAddedId, long highWater) {
        List<EntityRows.Row> batch = rows.kindBatchForShare(index.kind().name(), afterAddedId, highWater, batchSize);
        List<IndexTables.IndexRow> indexRows = new ArrayList<>();
        int skipped = 0;
        for (EntityRows.Row row : batch) {
            try {
                T body = codec.decode(row.id(), row.body(), index.kind().bodyType());
                for (StoredKey key : index.keysOf(row.id(), body)) {
                    indexRows.add(new IndexTables.IndexRow(key, row.id()));
                }
            } catch (CorruptEntityException | IllegalArgumentException | IllegalStateException e) {
                // One unreadable entity must not keep an index from ever becoming ready.
                log.warn("back-fill of index {} skips entity {}: {}", index.name(), row.id(), e.getMessage());
                skipped++;
            }
        }
        // IGNORE: rows a writer added since the index was registered are already there.
        int inserted = tables.insert(index, indexRows, true);
        long last = batch.isEmpty() ? highWater : batch.getLast().addedId();
        states.advance(index.name(), last);
        return new Batch(batch.size(), inserted, skipped, last);
    }
}
