package dev.tributary.crawler.schedule;

import dev.tributary.crawler.CrawlerSettings;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Switches;
import dev.tributary.pubsub.Writes;
import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The SQL of {@code crawl_state}: registering feeds, claiming due ones with
 * {@code FOR UPDATE SKIP LOCKED} leases and recording fetch outcomes fenced by the lease token.
 * Times are the database's clock, so nodes with skewed clocks agree on what is due. Only feeds
 * someone reads are claimed: the rest are set aside (idle), then retired.
 */
@Repository
public class CrawlStates {

    /** Where a gone feed's next fetch is put: never. */
    private static final String NEVER = "'9999-12-31 00:00:00'";

    /** Rounds of one claim that may meet feeds nobody reads, each followed by a sweep of them. */
    private static final int CLAIM_ROUNDS = 3;
    /** Due feeds a sweep looks at. */
    private static final int SWEEP = 500;
    /** Feeds registered per statement in bulk. */
    private static final int BULK = 500;
    private static final String NEVER_FETCHED = "c.fetch_count = 0";
    private static final String FETCHED_BEFORE = "c.fetch_count > 0 AND c.penalised = FALSE";
    /** Fetched before, slow, and one person's alone: claimed after every other due feed. */
    private static final String PENALISED = "c.fetch_count > 0 AND c.penalised = TRUE";
    /** Failures that hold a host's slot for a whole timeout: a tar pit's, or a host that does not answer. */
    private static final Set<String> SLOW_FAILURES = Set.of("timeout", "connect");

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
    private final Writes tx;
    private final Sources sources;
    private final Duration retireAfter;
    private final double newShare;

    private final Switches switches;

    CrawlStates(JdbcClient jdbc, Writes tx, Sources sources, CrawlerSettings settings, Switches switches) {
        this.jdbc = jdbc;
        this.switches = switches;
        this.tx = tx;
        this.sources = sources;
        this.retireAfter = settings.retireAfter();
        this.newShare = settings.newShare();
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
     * {@link #register} for many feeds at once, each due at once, in a multi-row statement per
     * few hundred; those already registered are left alone.
     */
    public void registerAll(Map<Long, URI> urls, Duration interval) {
        List<Map.Entry<Long, URI>> all = List.copyOf(urls.entrySet());
        for (int from = 0; from < all.size(); from += BULK) {
            List<Map.Entry<Long, URI>> chunk = all.subList(from, Math.min(all.size(), from + BULK));
            List<Object> args = new ArrayList<>(chunk.size() * 3);
            chunk.forEach(feed -> args.addAll(List.of(feed.getKey(), feed.getValue().toString(), seconds(interval))));
            jdbc.sql("INSERT IGNORE INTO crawl_state (source_id, url, next_fetch_at, interval_s, created_at) VALUES "
                    + String.join(", ", Collections.nCopies(chunk.size(), "(?, ?, UTC_TIMESTAMP(6), ?, UTC_TIMESTAMP(6))")))
                    .params(args).update();
        }
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
     * Leases up to {@code limit} due feeds that someone reads to {@code owner}: their next fetch
     * moves to the end of the lease, so no other node claims them unless this one dies before
     * recording an outcome. Due feeds nobody reads are set aside instead (see {@link #setAside}).
     */
    public List<CrawlState> claimDue(String owner, int limit, Duration leaseTtl) {
        if (limit <= 0) {
            return List.of();
        }
        // A deadlock victim is claimed again from scratch: the lease token is drawn anew inside.
        return tx.write("claim due feeds", () -> {
            long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
            // By feed: a lease shorter than this claim takes makes a feed leased in an early round due
            // again in a later one, and a feed is handed out once.
            Map<Long, CrawlState> claimed = new LinkedHashMap<>();
            for (int round = 0; round < CLAIM_ROUNDS && claimed.size() < limit; round++) {
                List<CrawlState> due = due(limit - claimed.size());
                List<CrawlState> read = readOnly(due);
                // Read: no longer idle, even if its reader came by a path that did not wake it.
                lease(ids(read), owner, leaseTtl, true, token);
                Map<Long, Long> sole = sources.soleReaders(ids(read));
                read.forEach(state -> claimed.put(state.sourceId(), withToken(state, token, sole.get(state.sourceId()))));
                if (read.size() == due.size()) {
                    break;
                }
                // Feeds nobody reads took places in this claim: clear a batch of them out of the way at once,
                // or a loop claiming one slot at a time would clear one per claim.
                sweep();
            }
            return List.copyOf(claimed.values());
        });
    }

    /** Sets aside those of {@code due} (locked by the caller) that nobody reads; returns the rest. */
    private List<CrawlState> readOnly(List<CrawlState> due) {
        if (due.isEmpty()) {
            return due;
        }
        Set<Long> read = sources.read(ids(due));
        setAside(due.stream().map(CrawlState::sourceId).filter(id -> !read.contains(id)).toList());
        return due.stream().filter(state -> read.contains(state.sourceId())).toList();
    }

    /** Sets aside the unread among the oldest due feeds; the read ones stay locked for this claim's next round. */
    private void sweep() {
        List<Long> due = jdbc.sql("""
                SELECT source_id FROM crawl_state WHERE next_fetch_at <= UTC_TIMESTAMP(6)
                ORDER BY next_fetch_at LIMIT ? FOR UPDATE SKIP LOCKED
                """).param(SWEEP).query(Long.class).list();
        if (!due.isEmpty()) {
            Set<Long> read = sources.read(due);
            setAside(due.stream().filter(id -> !read.contains(id)).toList());
        }
    }

    /**
     * Locks up to {@code limit} due feeds, at most the new share of them (on average) never
     * fetched while feeds fetched before are due too: new feeds of one import then wait among themselves, not
     * in front of everyone else's. Penalised feeds (slow, and one person's alone) come last, after
     * new ones: a person's tar pits wait behind everyone's healthy feeds, and never delay a feed
     * with other readers. Each part is oldest due first.
     */
    private List<CrawlState> due(int limit) {
        List<CrawlState> due = unpenalised(limit);
        if (due.size() < limit) {
            due.addAll(dueOf(PENALISED, limit - due.size(), List.of()));
        }
        return due;
    }

    private List<CrawlState> unpenalised(int limit) {
        if (!switches.isOn(Feature.NEW_FEED_CRAWLING)) {
            // Switched off under load: a first fetch (often a whole import's worth) waits, refreshes go on.
            return new ArrayList<>(dueOf(FETCHED_BEFORE, limit, List.of()));
        }
        // Rounded at random: the crawl loop often claims one slot at a time, and rounding up would
        // then give every slot to new feeds, rounding down none.
        double share = limit * newShare;
        int newQuota = (int) share + (ThreadLocalRandom.current().nextDouble() < share - (int) share ? 1 : 0);
        List<CrawlState> due = new ArrayList<>(dueOf(NEVER_FETCHED, newQuota, List.of()));
        due.addAll(dueOf(FETCHED_BEFORE, limit - due.size(), List.of()));
        if (due.size() < limit) {
            due.addAll(dueOf(NEVER_FETCHED, limit - due.size(), ids(due)));
        }
        return due;
    }

    private List<CrawlState> dueOf(String kind, int limit, List<Long> taken) {
        if (limit <= 0) {
            return List.of();
        }
        // Rows this transaction already locked are not skipped by SKIP LOCKED: leave them out.
        String notTaken = taken.isEmpty() ? "" : " AND c.source_id NOT IN (:taken)";
        var query = jdbc.sql(SELECT + " WHERE " + kind + " AND c.next_fetch_at <= UTC_TIMESTAMP(6)" + notTaken
                + " ORDER BY c.next_fetch_at LIMIT :limit FOR UPDATE SKIP LOCKED").param("limit", limit);
        return (taken.isEmpty() ? query : query.param("taken", taken)).query(STATE).list();
    }

    /**
     * Due feeds nobody reads, locked by the caller: the first time, they become idle and are
     * looked at again after {@code retireAfter}; idle that long, they are retired (never due).
     * Either way a new reader wakes them at once ({@link #wake}). SET assigns left to right, so
     * every line reads {@code idle_since} as it was.
     */
    private void setAside(List<Long> unread) {
        if (unread.isEmpty()) {
            return;
        }
        jdbc.sql("""
                UPDATE crawl_state
                SET status = CASE WHEN idle_since <= UTC_TIMESTAMP(6) - INTERVAL :retire MICROSECOND
                        THEN 'retired' ELSE status END,
                    next_fetch_at = CASE
                        WHEN idle_since IS NULL THEN UTC_TIMESTAMP(6) + INTERVAL :retire MICROSECOND
                        WHEN idle_since <= UTC_TIMESTAMP(6) - INTERVAL :retire MICROSECOND THEN %s
                        ELSE idle_since + INTERVAL :retire MICROSECOND END,
                    idle_since = COALESCE(idle_since, UTC_TIMESTAMP(6)),
                    lease_token = NULL, lease_owner = NULL
                WHERE source_id IN (:ids)
                """.formatted(NEVER))
                .param("retire", micros(retireAfter))
                .param("ids", unread)
                .update();
    }

    /**
     * Feeds retired for at least {@code grace} (idle for {@code retireAfter} plus it), after
     * {@code afterSourceId} in source order, at most {@code limit}: what a sweep of their items walks.
     */
    public List<Long> retiredBefore(Duration grace, long afterSourceId, int limit) {
        return jdbc.sql("""
                SELECT source_id FROM crawl_state
                WHERE status = 'retired' AND idle_since <= UTC_TIMESTAMP(6) - INTERVAL :idle MICROSECOND
                  AND source_id > :after
                ORDER BY source_id LIMIT :limit
                """)
                .param("idle", micros(retireAfter.plus(grace)))
                .param("after", afterSourceId)
                .param("limit", limit)
                .query(Long.class).list();
    }

    /** Whether the feed is still retired (nobody has followed it since). */
    public boolean isRetired(long sourceId) {
        return jdbc.sql("SELECT COUNT(*) FROM crawl_state WHERE source_id = ? AND status = 'retired'")
                .param(sourceId).query(Long.class).single() > 0;
    }

    /**
     * Makes an idle or retired feed due at once (someone follows it again); false if it was
     * neither, when it is left alone.
     */
    public boolean wake(long sourceId) {
        return jdbc.sql("""
                UPDATE crawl_state
                SET idle_since = NULL, status = CASE WHEN status = 'retired' THEN 'ok' ELSE status END,
                    next_fetch_at = UTC_TIMESTAMP(6)
                WHERE source_id = ? AND idle_since IS NOT NULL
                """).param(sourceId).update() > 0;
    }

    /**
     * Hands a claimed feed back without fetching it, due again after {@code delay} (its host is
     * busy); false if the lease was lost meanwhile.
     */
    public boolean defer(CrawlState claimed, Duration delay) {
        return jdbc.sql("""
                UPDATE crawl_state
                SET next_fetch_at = UTC_TIMESTAMP(6) + INTERVAL :delay MICROSECOND, lease_token = NULL, lease_owner = NULL
                WHERE source_id = :source AND lease_token = :token
                """)
                .param("delay", micros(delay))
                .param("source", claimed.sourceId())
                .param("token", claimed.leaseToken())
                .update() > 0;
    }

    /**
     * A reader's "refresh now": makes the feed due at once if politeness allows it (it is crawled
     * and not gone or retired, not being fetched, last fetched at least {@code minInterval} ago,
     * and its server did not last ask us to wait with a 429 or 503); true if it moved. The crawl
     * workers fetch it at their next look, through the host's queue like any due feed.
     */
    public boolean bringForward(long sourceId, Duration minInterval) {
        return jdbc.sql("""
                UPDATE crawl_state
                SET next_fetch_at = UTC_TIMESTAMP(6)
                WHERE source_id = ? AND status IN ('ok', 'error') AND lease_token IS NULL
                  AND next_fetch_at > UTC_TIMESTAMP(6)
                  AND (last_fetched_at IS NULL OR last_fetched_at <= UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND)
                  AND (last_http_status IS NULL OR last_http_status NOT IN (429, 503))
                """)
                .params(sourceId, micros(minInterval))
                .update() > 0;
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
            long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
            lease(List.of(sourceId), owner, leaseTtl, false, token);
            return Optional.of(withToken(found.get(), token, sources.soleReaders(List.of(sourceId)).get(sourceId)));
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
                    penalised = :penalised, lease_token = NULL, lease_owner = NULL
                WHERE source_id = :source AND lease_token = :token
                """.formatted(gone ? NEVER : "UTC_TIMESTAMP(6) + INTERVAL :delay MICROSECOND"))
                .param("penalised", penalised(claimed, outcome))
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

    /**
     * Whether a fetch's outcome puts its feed behind the others: it failed slowly (timed out, or
     * could not connect) and one person alone reads it. A feed with other readers never is.
     */
    static boolean penalised(CrawlState claimed, FetchRecord outcome) {
        return outcome.status() == CrawlStatusKind.ERROR && claimed.soleReader() != null
                && outcome.errorKey() != null && SLOW_FAILURES.contains(outcome.errorKey());
    }

    /** A feed found a new reader: it may be read by several now, so it waits behind nobody's until its next fetch says. */
    public void unpenalise(long sourceId) {
        jdbc.sql("UPDATE crawl_state SET penalised = FALSE WHERE source_id = ? AND penalised").param(sourceId).update();
    }

    /** Leases rows locked by the caller's transaction under {@code token}: the next fetch moves to the lease's end. */
    private void lease(List<Long> sourceIds, String owner, Duration leaseTtl, boolean read, long token) {
        if (sourceIds.isEmpty()) {
            return;
        }
        jdbc.sql("""
                UPDATE crawl_state
                SET lease_token = :token, lease_owner = :owner, idle_since = IF(:read, NULL, idle_since),
                    next_fetch_at = UTC_TIMESTAMP(6) + INTERVAL :ttl MICROSECOND
                WHERE source_id IN (:ids)
                """)
                .param("token", token)
                .param("owner", owner)
                .param("read", read)
                .param("ttl", micros(leaseTtl))
                .param("ids", sourceIds)
                .update();
    }

    private static List<Long> ids(List<CrawlState> states) {
        return states.stream().map(CrawlState::sourceId).toList();
    }

    private static CrawlState withToken(CrawlState s, long token, @Nullable Long soleReader) {
        return new CrawlState(s.sourceId(), s.url(), s.status(), s.etag(), s.lastModified(), s.nextFetchAt(),
                s.interval(), s.consecutiveErrors(), s.lastFetchedAt(), s.lastHttpStatus(), s.lastError(),
                s.lastErrorKey(), s.fetchCount(), s.push(), token, soleReader);
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
                push(rs.getString("push_state"), instant(rs.getTimestamp("push_until"))), leaseToken, null);
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
