package dev.tributary.storage;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The SQL of the entities table. Times are stored as UTC DATETIME(6), whatever the session's zone. */
@Component
final class EntityRows {

    /** Rows per multi-row INSERT, and a byte budget well below any server's max_allowed_packet. */
    static final int MAX_ROWS_PER_STATEMENT = 500;
    static final int MAX_BYTES_PER_STATEMENT = 4 * 1024 * 1024;

    record Row(long addedId, long id, String kind, Instant updated, byte[] body) {}

    record NewRow(long id, String kind, Instant updated, byte[] body) {}

    private final JdbcClient jdbc;
    private final JdbcTemplate template;

    EntityRows(JdbcClient jdbc, JdbcTemplate template) {
        this.jdbc = jdbc;
        this.template = template;
    }

    /** One multi-row INSERT per chunk (a single one for any ordinary batch), built here so it does not depend on the URL's rewriteBatchedStatements. */
    void insertAll(List<NewRow> rows) {
        int start = 0;
        while (start < rows.size()) {
            int end = start;
            long bytes = 0;
            while (end < rows.size() && end - start < MAX_ROWS_PER_STATEMENT
                    && (end == start || bytes + rows.get(end).body().length <= MAX_BYTES_PER_STATEMENT)) {
                bytes += rows.get(end).body().length;
                end++;
            }
            List<NewRow> chunk = rows.subList(start, end);
            StringBuilder sql = new StringBuilder("""
                    INSERT INTO entities (id, kind, updated, body) VALUES """);
            List<Object> args = new ArrayList<>(chunk.size() * 4);
            for (NewRow row : chunk) {
                sql.append(args.isEmpty() ? " (?, ?, ?, ?)" : ", (?, ?, ?, ?)");
                args.add(row.id());
                args.add(row.kind());
                args.add(toDb(row.updated()));
                args.add(row.body());
            }
            template.update(sql.toString(), args.toArray());
            start = end;
        }
    }

    /** Create or replace; the kind of an existing row is left as it was so the caller can check it. */
    void upsert(long id, String kind, Instant updated, byte[] body) {
        jdbc.sql("""
                INSERT INTO entities (id, kind, updated, body) VALUES (?, ?, ?, ?)
                ON DUPLICATE KEY UPDATE updated = VALUES(updated), body = VALUES(body)
                """)
                .params(id, kind, toDb(updated), body)
                .update();
    }

    Optional<String> kindOf(long id) {
        return jdbc.sql("SELECT kind FROM entities WHERE id = ?").param(id).query(String.class).optional();
    }

    /** Locks the row (if any) until the transaction ends, so index rows can be changed under it. */
    Optional<String> kindOfForUpdate(long id) {
        return jdbc.sql("SELECT kind FROM entities WHERE id = ? FOR UPDATE").param(id).query(String.class).optional();
    }

    List<Row> byIds(Collection<Long> ids) {
        return byIds(ids, false);
    }

    /** With {@code lock}, the rows stay X-locked until the caller's transaction ends. */
    List<Row> byIds(Collection<Long> ids, boolean lock) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                SELECT added_id, id, kind, updated, body FROM entities WHERE id IN (:ids)
                """ + (lock ? " FOR UPDATE" : ""))
                .param("ids", ids)
                .query(EntityRows::row)
                .list();
    }

    /**
     * Rows of these ids, with the body only for ids not in {@code known} (a caller's cache):
     * known rows come back with a null body, to be checked against the cache by {@code updated}.
     */
    List<Row> byIdsKnowing(Collection<Long> ids, Collection<Long> known) {
        if (ids.isEmpty()) {
            return List.of();
        }
        if (known.isEmpty()) {
            return byIds(ids);
        }
        return jdbc.sql("""
                SELECT added_id, id, kind, updated, CASE WHEN id IN (:known) THEN NULL ELSE body END AS body
                FROM entities WHERE id IN (:ids)
                """)
                .param("known", known)
                .param("ids", ids)
                .query(EntityRows::row)
                .list();
    }

    boolean delete(long id) {
        return jdbc.sql("DELETE FROM entities WHERE id = ?").param(id).update() > 0;
    }

    long maxAddedId() {
        return jdbc.sql("SELECT COALESCE(MAX(added_id), 0) FROM entities").query(Long.class).single();
    }

    /**
     * The next back-fill batch: one kind, oldest first, share-locked so that a concurrent put or
     * delete of these entities waits for (or is waited on by) the batch's index inserts.
     * LOCK IN SHARE MODE rather than FOR SHARE: MySQL 8.4 takes both, MariaDB 11.4 only the former.
     */
    List<Row> kindBatchForShare(String kind, long afterAddedId, long upToAddedId, int limit) {
        return jdbc.sql("""
                SELECT added_id, id, kind, updated, body FROM entities
                WHERE kind = ? AND added_id > ? AND added_id <= ?
                ORDER BY added_id
                LIMIT ?
                LOCK IN SHARE MODE
                """)
                .params(kind, afterAddedId, upToAddedId, limit)
                .query(EntityRows::row)
                .list();
    }

    /** The cleaner's next batch: newest first (where mistakes are most likely to be read), share-locked. */
    List<Row> newestForShare(Collection<String> kinds, long beforeAddedId, int limit) {
        return jdbc.sql("""
                SELECT added_id, id, kind, updated, body FROM entities
                WHERE added_id < :before AND kind IN (:kinds)
                ORDER BY added_id DESC
                LIMIT :limit
                LOCK IN SHARE MODE
                """)
                .param("before", beforeAddedId)
                .param("kinds", kinds)
                .param("limit", limit)
                .query(EntityRows::row)
                .list();
    }

    private static Row row(ResultSet rs, int rowNum) throws SQLException {
        return new Row(rs.getLong("added_id"), rs.getLong("id"), rs.getString("kind"),
                fromDb(rs.getObject("updated", LocalDateTime.class)), rs.getBytes("body"));
    }

    static LocalDateTime toDb(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant fromDb(LocalDateTime value) {
        return value.toInstant(ZoneOffset.UTC);
    }
}
