package dev.tributary.crawler.schedule;

import dev.tributary.storage.Transactions;
import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The SQL of {@code crawl_state}: registering feeds, claiming due ones with
 * {@code FOR UPDATE SKIP LOCKED} leases and recording fetch outcomes fenced by the lease token.
 * Times are the database's clock, so nodes with skewed clocks agree on what is due.
 */
@Repository
public class CrawlStates {

    /** Where a gone feed's next fetch is put: never. */
    private static final String NEVER = "'9999-12-31 00:00:00'";

    private static final RowMapper<CrawlState> STATE = CrawlStates::map;

    /**
     * Crawl state with its WebSub lease, if any, read in the same statement: most feeds have no
     * hub, and a refresh should not spend a query finding that out.
     */
    private static final String SELECT = """
            SELECT c.*, w.state AS push_state, w.lease_until AS push_until
            FROM crawl_state c LEFT JOIN websub_subscriptions w ON w.source_id = c.source_id
            """;

    private final JdbcClient jdbc;
    private final Transactions tx;

    CrawlStates(JdbcClient jdbc, Transactions tx) {
        this.jdbc = jdbc;
        this.tx = tx;
    }

    /**
     * Starts crawling a feed, first fetch after {@code firstFetchIn} (zero: due at once); false if
     * it was already registered (its state is left alone).
     */
    public boolean register(long sourceId, URI url, Duration interval, Duration firstFetchIn) {
        return jdbc.sql("""
                INSERT IGNORE INTO crawl_state (source_id, url, next_fetch_at, interval_s, created_at)
                VALUES (?, ?, UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, ?, UTC_TIMESTAMP(6))
                """)
                .params(sourceId, url.toString(), micros(firstFetchIn), seconds(interval))
                .update() > 0;
    }

    /**
     * Starts crawling a feed that was just fetched (subscribing by url fetches it once): the fetch
     * counts as its first, so the source shows when it was fetched and the next poll is
     * conditional on its validators. False if it was already registered (left alone).
     */
    public boolean registerFetched(long sourceId, URI url, Duration interval, int httpStatus, @Nullable String etag,
            @Nullable String lastModified) {
        return jdbc.sql("""
                INSERT IGNORE INTO crawl_state (source_id, url, next_fetch_at, interval_s, created_at, last_fetched_at,
                    last_http_status, etag, last_modified, fetch_count)
                VALUES (?, ?, UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND, ?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), ?, ?, ?, 1)
                """)
                .params(sourceId, url.toString(), micros(interval), seconds(interval), httpStatus,
                        truncate(etag, 512), truncate(lastModified, 128))
                .update() > 0;
    }

    public Optional<CrawlState> find(long sourceId) {
        return jdbc.sql(SELECT + " WHERE c.source_id = ?").param(sourceId).query(STATE).optional();
    }

    /** The states of these sources (those that have one), in no particular order. */
    public List<CrawlState> findAll(Collection<Long> sourceIds) {
        if (sourceIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql(SELECT + " WHERE c.source_id IN (:ids)").param("ids", sourceIds)
                .query(STATE).list();
    }

    /**
     * Leases up to {@code limit} due feeds to {@code owner}: their next fetch moves to the end of
     * the lease, so no other node claims them unless this one dies before recording an outcome.
     */
    public List<CrawlState> claimDue(String owner, int limit, Duration leaseTtl) {
        if (limit <= 0) {
            return List.of();
        }
        // A deadlock victim is claimed again from scratch: the lease token is drawn anew inside.
        return tx.write("claim due feeds", () -> {
            List<CrawlState> due = jdbc.sql(SELECT + """
                     WHERE c.next_fetch_at <= UTC_TIMESTAMP(6)
                    ORDER BY c.next_fetch_at LIMIT ? FOR UPDATE SKIP LOCKED
                    """).param(limit).query(STATE).list();
            if (due.isEmpty()) {
                return List.<CrawlState>of();
            }
            long token = lease(due.stream().map(CrawlState::sourceId).toList(), owner, leaseTtl);
            return due.stream().map(state -> withToken(state, token)).toList();
        });
    }

    /**
     * Leases one feed now, due or not (a manual refresh), unless it is gone or leased to another.
     */
    public Optional<CrawlState> claim(long sourceId, String owner, Duration leaseTtl) {
        return tx.write("claim feed " + sourceId, () -> {
            Optional<CrawlState> found = jdbc.sql(SELECT + """
                     WHERE c.source_id = ? AND c.status <> 'gone'
                      AND (c.lease_token IS NULL OR c.next_fetch_at <= UTC_TIMESTAMP(6))
                    FOR UPDATE SKIP LOCKED
                    """).param(sourceId).query(STATE).optional();
            if (found.isEmpty()) {
                return found;
            }
            return Optional.of(withToken(found.get(), lease(List.of(sourceId), owner, leaseTtl)));
        });
    }

    /**
     * Records how a claimed fetch went and when the feed is next due; false (nothing written) if
     * the lease was lost meanwhile.
     */
    public boolean record(CrawlState claimed, FetchRecord outcome) {
        boolean gone = outcome.status() == CrawlStatusKind.GONE;
        return jdbc.sql("""
                UPDATE crawl_state
                SET status = :status, url = :url, etag = :etag, last_modified = :lastModified,
                    next_fetch_at = %s, interval_s = :interval,
                    consecutive_errors = :errors, last_fetched_at = UTC_TIMESTAMP(6), last_http_status = :http,
                    last_error = :error, last_error_key = :errorKey, fetch_count = fetch_count + 1,
                    lease_token = NULL, lease_owner = NULL
                WHERE source_id = :source AND lease_token = :token
                """.formatted(gone ? NEVER : "UTC_TIMESTAMP(6) + INTERVAL :delay MICROSECOND"))
                .param("status", outcome.status().wireName())
                .param("url", outcome.url().toString())
                .param("etag", truncate(outcome.etag(), 512))
                .param("lastModified", truncate(outcome.lastModified(), 128))
                .param("delay", micros(outcome.nextFetchIn()))
                .param("interval", seconds(outcome.interval()))
                .param("errors", outcome.consecutiveErrors())
                .param("http", outcome.httpStatus())
                .param("error", truncate(outcome.error(), 1024))
                .param("errorKey", outcome.errorKey())
                .param("source", claimed.sourceId())
                .param("token", claimed.leaseToken())
                .update() > 0;
    }

    /** Leases rows locked by the caller's transaction: the next fetch moves to the lease's end. Returns the token. */
    private long lease(List<Long> sourceIds, String owner, Duration leaseTtl) {
        long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        jdbc.sql("""
                UPDATE crawl_state
                SET lease_token = :token, lease_owner = :owner,
                    next_fetch_at = UTC_TIMESTAMP(6) + INTERVAL :ttl MICROSECOND
                WHERE source_id IN (:ids)
                """)
                .param("token", token)
                .param("owner", owner)
                .param("ttl", micros(leaseTtl))
                .param("ids", sourceIds)
                .update();
        return token;
    }

    private static CrawlState withToken(CrawlState s, long token) {
        return new CrawlState(s.sourceId(), s.url(), s.status(), s.etag(), s.lastModified(), s.nextFetchAt(),
                s.interval(), s.consecutiveErrors(), s.lastFetchedAt(), s.lastHttpStatus(), s.lastError(),
                s.lastErrorKey(), s.fetchCount(), s.push(), token);
    }

    private static CrawlState map(ResultSet rs, int row) throws SQLException {
        long token = rs.getLong("lease_token");
        Long leaseToken = rs.wasNull() ? null : token;
        Integer http = rs.getObject("last_http_status") == null ? null : rs.getInt("last_http_status");
        return new CrawlState(rs.getLong("source_id"), URI.create(rs.getString("url")),
                CrawlStatusKind.of(rs.getString("status")), rs.getString("etag"), rs.getString("last_modified"),
                instant(rs.getTimestamp("next_fetch_at")), Duration.ofSeconds(rs.getInt("interval_s")),
                rs.getInt("consecutive_errors"), instant(rs.getTimestamp("last_fetched_at")), http,
                rs.getString("last_error"), rs.getString("last_error_key"), rs.getLong("fetch_count"),
                push(rs.getString("push_state"), instant(rs.getTimestamp("push_until"))), leaseToken);
    }

    private static CrawlState.@Nullable Push push(@Nullable String state, @Nullable Instant until) {
        return state == null ? null : new CrawlState.Push(state.equals("verified"), until);
    }

    private static @Nullable Instant instant(@Nullable Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    private static long micros(Duration duration) {
        return Math.max(0, duration.toNanos() / 1000);
    }

    private static int seconds(Duration duration) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, duration.toSeconds()));
    }

    private static @Nullable String truncate(@Nullable String value, int max) {
        return value == null || value.length() <= max ? value : value.substring(0, max);
    }
}
