package dev.tributary.storage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The SQL of the index tables. Table and column names come from validated
 * {@link IndexDefinition}s (plain identifiers), never from callers' data.
 */
@Component
final class IndexTables {

    /** One row of an index table. */
    record IndexRow(StoredKey key, long entityId) {}

    private final JdbcClient jdbc;
    private final JdbcTemplate template;

    IndexTables(JdbcClient jdbc, JdbcTemplate template) {
        this.jdbc = jdbc;
        this.template = template;
    }

    /**
     * Multi-row INSERT of {@code rows}, chunked like the entities insert. With
     * {@code ignoreDuplicates} (back-fill, cleaner) a row already there is left alone; otherwise
     * a duplicate raises DuplicateKeyException, which for a unique index means another entity owns the key.
     */
    int insert(IndexDefinition<?> index, List<IndexRow> rows, boolean ignoreDuplicates) {
        int inserted = 0;
        int width = index.columns().size() + 1;
        String tuple = "(" + String.join(", ", java.util.Collections.nCopies(width, "?")) + ")";
        for (int start = 0; start < rows.size(); start += EntityRows.MAX_ROWS_PER_STATEMENT) {
            List<IndexRow> chunk = rows.subList(start, Math.min(rows.size(), start + EntityRows.MAX_ROWS_PER_STATEMENT));
            StringBuilder sql = new StringBuilder("""
                    INSERT %s INTO %s (%s, entity_id) VALUES """
                    .formatted(ignoreDuplicates ? "IGNORE" : "", index.table(), index.columnList()));
            List<Object> args = new ArrayList<>(chunk.size() * width);
            for (IndexRow row : chunk) {
                sql.append(args.isEmpty() ? " " : ", ").append(tuple);
                args.addAll(row.key().sqlValues());
                args.add(row.entityId());
            }
            inserted += template.update(sql.toString(), args.toArray());
        }
        return inserted;
    }

    int deleteByEntities(IndexDefinition<?> index, Collection<Long> entityIds) {
        if (entityIds.isEmpty()) {
            return 0;
        }
        return jdbc.sql("DELETE FROM %s WHERE entity_id IN (:ids)".formatted(index.table()))
                .param("ids", entityIds)
                .update();
    }

    /** Deletes exactly these (key, entity) rows; used by the cleaner for stale rows. */
    int deleteRows(IndexDefinition<?> index, List<IndexRow> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        String sql = """
                DELETE FROM %s WHERE %s AND entity_id = ?
                """.formatted(index.table(), keyEquals(index, index.columns().size()));
        List<Object[]> batch = rows.stream().map(row -> {
            List<Object> args = new ArrayList<>(row.key().sqlValues());
            args.add(row.entityId());
            return args.toArray();
        }).toList();
        int deleted = 0;
        for (int count : template.batchUpdate(sql, batch)) {
            // rewriteBatchedStatements reports SUCCESS_NO_INFO (-2) per statement: count it as one.
            deleted += count < 0 ? 1 : count;
        }
        return deleted;
    }

    List<IndexRow> rowsOfEntities(IndexDefinition<?> index, Collection<Long> entityIds) {
        if (entityIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                SELECT %s, entity_id FROM %s WHERE entity_id IN (:ids)
                """.formatted(index.columnList(), index.table()))
                .param("ids", entityIds)
                .query(rowMapper(index))
                .list();
    }

    List<IndexRow> lookup(IndexDefinition<?> index, StoredKey key, int limit) {
        return jdbc.sql("""
                SELECT %s, entity_id FROM %s WHERE %s ORDER BY entity_id LIMIT ?
                """.formatted(index.columnList(), index.table(), keyEquals(index, key.values().size())))
                .params(withLimit(key.sqlValues(), limit))
                .query(rowMapper(index))
                .list();
    }

    /** Rows with any of these full keys, in one query ({@code (c1, c2) IN ((?, ?), ...)}). */
    List<IndexRow> lookupAll(IndexDefinition<?> index, Collection<StoredKey> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        int width = index.columns().size();
        String tuple = "(" + String.join(", ", java.util.Collections.nCopies(width, "?")) + ")";
        String tuples = String.join(", ", java.util.Collections.nCopies(keys.size(), tuple));
        List<Object> args = new ArrayList<>(keys.size() * width);
        keys.forEach(key -> args.addAll(key.sqlValues()));
        return jdbc.sql("""
                SELECT %s, entity_id FROM %s WHERE (%s) IN (%s)
                """.formatted(index.columnList(), index.table(), index.columnList(), tuples))
                .params(args)
                .query(rowMapper(index))
                .list();
    }

    /**
     * Rows under {@code prefix} whose last (BIGINT) column lies strictly between {@code after} and
     * {@code before}, ordered by (last column, entity_id). {@code resumeFrom} continues after a row
     * already seen, so that ties on the last column are neither skipped nor repeated.
     */
    List<IndexRow> range(IndexDefinition<?> index, StoredKey prefix, Long after, Long before,
            IndexRow resumeFrom, int limit, SortOrder order) {
        String last = index.columns().getLast().name();
        List<Object> args = new ArrayList<>(prefix.sqlValues());
        StringBuilder where = new StringBuilder(prefix.values().isEmpty() ? "TRUE" : keyEquals(index, prefix.values().size()));
        if (after != null) {
            where.append(" AND ").append(last).append(" > ?");
            args.add(after);
        }
        if (before != null) {
            where.append(" AND ").append(last).append(" < ?");
            args.add(before);
        }
        String direction = order == SortOrder.DESCENDING ? "DESC" : "ASC";
        if (resumeFrom != null) {
            String op = order == SortOrder.DESCENDING ? "<" : ">";
            where.append(" AND (%s %s ? OR (%s = ? AND entity_id %s ?))".formatted(last, op, last, op));
            args.add(resumeFrom.key().last());
            args.add(resumeFrom.key().last());
            args.add(resumeFrom.entityId());
        }
        args.add(limit);
        return jdbc.sql("""
                SELECT %s, entity_id FROM %s WHERE %s ORDER BY %s %s, entity_id %s LIMIT ?
                """.formatted(index.columnList(), index.table(), where, last, direction, direction))
                .params(args)
                .query(rowMapper(index))
                .list();
    }

    /** Entity ids above {@code afterEntityId} whose index rows point at no entity, or at one of another kind. */
    List<Long> orphans(IndexDefinition<?> index, long afterEntityId, int limit) {
        return jdbc.sql("""
                SELECT DISTINCT i.entity_id FROM %s i
                LEFT JOIN entities e ON e.id = i.entity_id
                WHERE i.entity_id > ? AND (e.id IS NULL OR e.kind <> ?)
                ORDER BY i.entity_id
                LIMIT ?
                """.formatted(index.table()))
                .params(afterEntityId, index.kind().name(), limit)
                .query(Long.class)
                .list();
    }

    /** Re-checks orphanhood in the DELETE itself, so an entity (re)created since the scan keeps its rows. */
    int deleteOrphans(IndexDefinition<?> index, Collection<Long> entityIds) {
        if (entityIds.isEmpty()) {
            return 0;
        }
        return jdbc.sql("""
                DELETE i FROM %s i
                LEFT JOIN entities e ON e.id = i.entity_id
                WHERE i.entity_id IN (:ids) AND (e.id IS NULL OR e.kind <> :kind)
                """.formatted(index.table()))
                .param("ids", entityIds)
                .param("kind", index.kind().name())
                .update();
    }

    /** Whether the table exists with every key column and entity_id; the problem found, or null. */
    String checkTable(IndexDefinition<?> index) {
        List<String> columns = jdbc.sql("""
                SELECT LOWER(column_name) AS name FROM information_schema.columns
                WHERE table_schema = DATABASE() AND table_name = ?
                """)
                .param(index.table())
                .query(String.class)
                .list();
        if (columns.isEmpty()) {
            return "table " + index.table() + " does not exist; create it in a Flyway migration:\n" + index.createTableSql();
        }
        List<String> missing = new ArrayList<>();
        for (IndexColumn column : index.columns()) {
            if (!columns.contains(column.name())) {
                missing.add(column.name());
            }
        }
        if (!columns.contains("entity_id")) {
            missing.add("entity_id");
        }
        return missing.isEmpty() ? null : "table " + index.table() + " lacks columns " + missing;
    }

    private static String keyEquals(IndexDefinition<?> index, int count) {
        return index.columns().subList(0, count).stream()
                .map(c -> c.name() + " = ?")
                .collect(Collectors.joining(" AND "));
    }

    private static List<Object> withLimit(List<Object> args, int limit) {
        List<Object> all = new ArrayList<>(args);
        all.add(limit);
        return all;
    }

    private static RowMapper<IndexRow> rowMapper(IndexDefinition<?> index) {
        int entityColumn = index.columns().size() + 1;
        return (rs, rowNum) -> new IndexRow(index.readKey(rs), rs.getLong(entityColumn));
    }
}
