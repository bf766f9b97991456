package dev.tributary.storage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Writes the rows of deferred indexes ({@link IndexDefinition#deferred}) after their entities'
 * transactions: a writer queues the entity in {@code index_pending} (one row, in its own
 * transaction), and a drain replaces the entity's rows with those of its body as committed, in
 * batches. A drain locks the queue rows it takes (SKIP LOCKED, so nodes share the work) and a
 * writer queuing the same entity waits for that drain to commit and queues it again, so the last
 * body written is always indexed last.
 *
 * <p>The queue has two lanes: what writers queue, and a backlog (what a migration queues to
 * re-index every stored entity, the column's default). A batch takes every writer's row up to
 * {@link #BATCH}, then fills itself from the backlog, newest entity first, with at least
 * {@link #BACKLOG_SHARE} backlog rows: a fresh write is indexed by the next batch however long the
 * backlog, and a flood of writes slows the backlog without stopping it.
 */
@Service
class DeferredIndexes {

    /** Entities one drain transaction indexes. */
    static final int BATCH = 500;

    /** Backlog entities a batch takes even when writers' rows fill it. */
    static final int BACKLOG_SHARE = BATCH / 10;

    private static final Logger log = LoggerFactory.getLogger(DeferredIndexes.class);

    private final JdbcClient jdbc;
    private final IndexRegistry registry;
    private final EntityRows rows;
    private final IndexTables tables;
    private final BodyCodec codec;
    private final Transactions tx;

    DeferredIndexes(JdbcClient jdbc, IndexRegistry registry, EntityRows rows, IndexTables tables, BodyCodec codec, Transactions tx) {
        this.jdbc = jdbc;
        this.registry = registry;
        this.rows = rows;
        this.tables = tables;
        this.codec = codec;
        this.tx = tx;
    }

    /** Queues these entities for the index, inside the writer's transaction, ahead of any backlog. */
    void queue(IndexDefinition<?> index, Collection<Long> entityIds) {
        List<Long> ids = List.copyOf(entityIds);
        for (int start = 0; start < ids.size(); start += EntityRows.MAX_ROWS_PER_STATEMENT) {
            List<Long> chunk = ids.subList(start, Math.min(ids.size(), start + EntityRows.MAX_ROWS_PER_STATEMENT));
            StringBuilder sql = new StringBuilder("INSERT INTO index_pending (index_name, entity_id, backlog) VALUES ");
            List<Object> args = new ArrayList<>(chunk.size() * 2);
            for (long id : chunk) {
                sql.append(args.isEmpty() ? "(?, ?, FALSE)" : ", (?, ?, FALSE)");
                args.add(index.name());
                args.add(id);
            }
            // An entity waiting in the backlog was just rewritten: it is a writer's now.
            sql.append(" ON DUPLICATE KEY UPDATE backlog = FALSE");
            jdbc.sql(sql.toString()).params(args).update();
        }
    }

    /** Drains every deferred index until its queue is empty (or the thread is interrupted); entities indexed. */
    long drainAll() {
        long total = 0;
        for (IndexDefinition<?> index : registry.all()) {
            if (!index.isDeferred()) {
                continue;
            }
            int batch;
            do {
                batch = drain(index);
                total += batch;
            } while (batch >= BATCH && !Thread.currentThread().isInterrupted());
        }
        return total;
    }

    /** What the storage's background thread runs: a failure is logged and the next run tries again. */
    void drainQuietly() {
        try {
            drainAll();
        } catch (RuntimeException e) {
            log.warn("deferred indexes: {}", e.toString());
        }
    }

    /** One batch of one index (at most {@link #BATCH} + {@link #BACKLOG_SHARE} entities): the entities indexed. */
    <T> int drain(IndexDefinition<T> index) {
        return tx.write("index " + index.name(), () -> {
            List<Long> ids = new ArrayList<>(jdbc.sql("""
                    SELECT entity_id FROM index_pending WHERE index_name = ? AND backlog = FALSE
                    ORDER BY entity_id LIMIT ? FOR UPDATE SKIP LOCKED
                    """).params(index.name(), BATCH).query(Long.class).list());
            // Newest first: recent entities are the ones searched most.
            ids.addAll(jdbc.sql("""
                    SELECT entity_id FROM index_pending WHERE index_name = ? AND backlog = TRUE
                    ORDER BY entity_id DESC LIMIT ? FOR UPDATE SKIP LOCKED
                    """).params(index.name(), Math.max(BACKLOG_SHARE, BATCH - ids.size())).query(Long.class).list());
            if (ids.isEmpty()) {
                return 0;
            }
            List<IndexTables.IndexRow> indexRows = new ArrayList<>();
            for (EntityRows.Row row : rows.byIds(ids)) {
                if (row.kind().equals(index.kind().name())) {
                    keys(index, row, indexRows);
                }
            }
            tables.deleteByEntities(index, ids);
            tables.insert(index, indexRows, true);
            jdbc.sql("DELETE FROM index_pending WHERE index_name = :index AND entity_id IN (:ids)")
                    .param("index", index.name()).param("ids", ids).update();
            return ids.size();
        });
    }

    private <T> void keys(IndexDefinition<T> index, EntityRows.Row row, List<IndexTables.IndexRow> into) {
        try {
            T body = codec.decode(row.id(), row.body(), index.kind().bodyType());
            for (StoredKey key : index.keysOf(row.id(), body)) {
                into.add(new IndexTables.IndexRow(key, row.id()));
            }
        } catch (CorruptEntityException | IllegalArgumentException | IllegalStateException e) {
            // One unreadable entity must not hold the queue up: it stays out of the index.
            log.warn("deferred index {} skips entity {}: {}", index.name(), row.id(), e.getMessage());
        }
    }
}
