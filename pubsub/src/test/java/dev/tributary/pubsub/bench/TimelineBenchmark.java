package dev.tributary.pubsub.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.tributary.pubsub.HomeTimeline;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.TimelineSettings;
import dev.tributary.pubsub.bench.Bench.Args;
import dev.tributary.pubsub.bench.Bench.Series;
import dev.tributary.storage.IdGenerator;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code ./bench/run timeline}: the home timeline's first page ({@code HomeTimeline.page(user,
 * TimelineQuery.newest(50))}: the window-bounded inbox query, the multi-get of the items, their
 * decoding) for random people, against the same run's plain JDBC: the newest 50 item ids of the
 * inbox by primary key, then {@code SELECT id, body FROM entities WHERE id IN (...)} reading the
 * bytes. The same threads on both sides (default 2), rounds interleaved with alternating order,
 * independent random people on each side; medians of queries/s and of the rounds' p99 latency.
 *
 * <p>Setup, not measured: a pool of items (default 5,000 of about 1 KB, from 50 feeds) published
 * through {@link Publisher} with the fan-out workers off, then every person's inbox filled with
 * 800 distinct items of the pool (the timeline window) by multi-row INSERTs on 2 threads.
 */
public final class TimelineBenchmark {

    private static final int PAGE = 50;
    private static final int SOURCES = 50;
    private static final String URL = "https://bench.tributary.test/timeline/";

    /** One measured step: queries done, in how long, and their latencies (ns). */
    record Step(int queries, double seconds, long[] latencies) {
        double rate() {
            return queries / seconds;
        }

        double p50() {
            return Bench.quantileMillis(latencies, queries, 0.50);
        }

        double p99() {
            return Bench.quantileMillis(latencies, queries, 0.99);
        }
    }

    /** What a side does for one person: a page of 50; returns the entries read. */
    interface Side {
        int page(Connection connection, long user) throws SQLException;
    }

    private final Sources sources;
    private final Publisher publisher;
    private final HomeTimeline timeline;
    private final IdGenerator ids;
    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final int window;
    private final Random random = new Random(42);

    private final int rounds;
    private final int users;
    private final int poolSize;
    private final int perInbox;
    private final int threads;
    private final int queries;
    private final Duration limit;

    TimelineBenchmark(ConfigurableApplicationContext context, Args args) {
        this.sources = context.getBean(Sources.class);
        this.publisher = context.getBean(Publisher.class);
        this.timeline = context.getBean(HomeTimeline.class);
        this.ids = context.getBean(IdGenerator.class);
        this.dataSource = context.getBean(DataSource.class);
        this.jdbc = new JdbcTemplate(dataSource);
        this.window = context.getBean(TimelineSettings.class).maxEntries();
        this.rounds = args.integer("rounds", 5);
        this.users = args.integer("users", 10_000);
        this.poolSize = args.integer("items", 5_000);
        this.perInbox = Math.min(poolSize, args.integer("inbox", window));
        this.threads = args.integer("threads", 2);
        this.queries = args.integer("queries", 5_000);
        this.limit = args.seconds("limit-seconds", 30);
    }

    public static void main(String[] args) {
        Args options = new Args(args);
        // No fan-out workers: inboxes are filled directly, and nothing runs in the background.
        try (ConfigurableApplicationContext context = Bench.start("tributary.fanout.workers=0")) {
            new TimelineBenchmark(context, options).run();
        }
    }

    private void run() {
        long setupStart = System.nanoTime();
        long[] pool = publishPool();
        double publishSeconds = (System.nanoTime() - setupStart) / 1e9;
        long[] people = new long[users];
        for (int i = 0; i < users; i++) {
            people[i] = ids.next();
        }
        long inboxStart = System.nanoTime();
        long rows = fillInboxes(people, pool);
        double inboxSeconds = (System.nanoTime() - inboxStart) / 1e9;
        jdbc.execute("ANALYZE TABLE inbox");
        long bufferPool = jdbc.queryForObject("SELECT @@innodb_buffer_pool_size", Long.class);
        long inboxBytes = jdbc.queryForObject("""
                SELECT data_length + index_length FROM information_schema.tables
                WHERE table_schema = DATABASE() AND table_name = 'inbox'""", Long.class);
        System.out.println(Bench.format("timeline benchmark: %,d people x %d inbox entries (window %d) = %,d rows from a pool "
                + "of %,d items (%d feeds, ~1 KB of JSON each, %d bytes stored); pages of %d, %d thread(s) each side, %,d queries per "
                + "step, %s limit, %d measured rounds after 1 warm-up", users, perInbox, window, rows, pool.length, SOURCES,
                averageBodyBytes(), PAGE, threads, queries, limit, rounds));
        System.out.println(Bench.format("  setup %.1f s: items published in %.1f s, inboxes filled in %.1f s (%,.0f rows/s); "
                + "inbox table ~%,d MB, InnoDB buffer pool %,d MB", (System.nanoTime() - setupStart) / 1e9, publishSeconds,
                inboxSeconds, rows / inboxSeconds, inboxBytes >> 20, bufferPool >> 20));

        Side subject = (connection, user) -> expect(timeline.page(user, TimelineQuery.newest(PAGE)));
        Side baseline = this::rawPage;
        Series rawRate = new Series("raw inbox SELECT + entities IN (baseline)");
        Series rawP50 = new Series("raw p50");
        Series rawP99 = new Series("raw p99");
        Series subjectRate = new Series("HomeTimeline.page(newest(50))");
        Series subjectP50 = new Series("subject p50");
        Series subjectP99 = new Series("subject p99");
        for (int round = 0; round <= rounds; round++) {
            boolean measured = round > 0;
            String label = measured ? "round " + round : "warm-up";
            for (boolean raw : round % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                Step step = measure(raw ? baseline : subject, people, !raw);
                (raw ? rawRate : subjectRate).add(measured, step.rate());
                (raw ? rawP50 : subjectP50).add(measured, step.p50());
                (raw ? rawP99 : subjectP99).add(measured, step.p99());
                System.out.println(Bench.format("  %-8s %-10s %,7d pages in %6.2f s = %,8.0f pages/s, p50 %6.2f ms, p99 %6.2f ms",
                        label, raw ? "baseline" : "timeline", step.queries(), step.seconds(), step.rate(), step.p50(), step.p99()));
            }
        }

        System.out.println();
        System.out.println(Bench.format("%-44s %11s %11s %11s %10s %10s", "pages of " + PAGE, "median/s", "min/s", "max/s",
                "p50 ms", "p99 ms"));
        System.out.println(Bench.format("%-44s %11.0f %11.0f %11.0f %10.2f %10.2f", rawRate.name, rawRate.median(),
                rawRate.min(), rawRate.max(), rawP50.median(), rawP99.median()));
        System.out.println(Bench.format("%-44s %11.0f %11.0f %11.0f %10.2f %10.2f", subjectRate.name, subjectRate.median(),
                subjectRate.min(), subjectRate.max(), subjectP50.median(), subjectP99.median()));
        System.out.println(Bench.format("(latencies: medians over the rounds of each round's p50 and p99)"));
        System.out.println(Bench.format("timeline p99: %.2f ms vs baseline %.2f ms = %.2f", subjectP99.median(), rawP99.median(),
                subjectP99.median() / rawP99.median()));
        System.out.println(Bench.format("timeline: %.0f pages/s vs baseline %.0f pages/s = %.2f", subjectRate.median(),
                rawRate.median(), subjectRate.median() / rawRate.median()));
    }

    // ---------------------------------------------------------------- measuring

    /** {@code queries} pages of random people on {@code threads} threads, bounded by the time limit. */
    private Step measure(Side side, long[] people, boolean pooled) {
        long[] latencies = new long[queries];
        long[] chosen = new long[queries];
        for (int i = 0; i < queries; i++) {
            chosen[i] = people[random.nextInt(people.length)];
        }
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("bench-" + t).start(() -> {
                // The baseline keeps one connection per thread; the subject borrows from the pool as it does.
                try (Connection connection = pooled ? null : dataSource.getConnection()) {
                    for (int i = next.getAndIncrement(); i < queries && System.nanoTime() < deadline; i = next.getAndIncrement()) {
                        long began = System.nanoTime();
                        side.page(connection, chosen[i]);
                        latencies[i] = System.nanoTime() - began;
                        done.incrementAndGet();
                    }
                } catch (SQLException | RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        Bench.join(workers, limit.plusSeconds(60));
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!failures.isEmpty()) {
            throw new IllegalStateException("benchmark thread failed", failures.getFirst());
        }
        // Latencies of the queries done: indices are handed out in order, so the done ones are a prefix
        // except for at most one per thread cut by the deadline (left at 0, then dropped).
        long[] measured = Arrays.stream(latencies).filter(l -> l > 0).toArray();
        return new Step(measured.length, seconds, measured);
    }

    private static int expect(List<TimelineEntry> page) {
        if (page.size() != PAGE) {
            throw new IllegalStateException("expected a page of " + PAGE + ", got " + page.size());
        }
        return page.size();
    }

    private static final String NEWEST = "SELECT item_id FROM inbox WHERE user_id = ? ORDER BY item_id DESC LIMIT " + PAGE;
    private static final String BODIES = "SELECT id, body FROM entities WHERE id IN ("
            + String.join(", ", Collections.nCopies(PAGE, "?")) + ")";

    /** The baseline: the newest 50 ids by primary key, then their bodies (bytes read, not decoded). */
    private int rawPage(Connection connection, long user) throws SQLException {
        long[] items = new long[PAGE];
        int n = 0;
        try (PreparedStatement ps = connection.prepareStatement(NEWEST)) {
            ps.setLong(1, user);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    items[n++] = rs.getLong(1);
                }
            }
        }
        if (n != PAGE) {
            throw new IllegalStateException("expected " + PAGE + " inbox rows, got " + n);
        }
        int bodies = 0;
        try (PreparedStatement ps = connection.prepareStatement(BODIES)) {
            for (int i = 0; i < PAGE; i++) {
                ps.setLong(i + 1, items[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rs.getLong(1);
                    if (rs.getBytes(2).length > 0) {
                        bodies++;
                    }
                }
            }
        }
        if (bodies != PAGE) {
            throw new IllegalStateException("expected " + PAGE + " bodies, got " + bodies);
        }
        return bodies;
    }

    // ---------------------------------------------------------------- setup

    /** The item pool, published through the service in calls of at most 500; the fan-out tasks are dropped. */
    private long[] publishPool() {
        long[] sourceIds = new long[SOURCES];
        for (int s = 0; s < SOURCES; s++) {
            sourceIds[s] = sources.feed(URL + s).id();
        }
        List<Long> pool = new ArrayList<>(poolSize);
        Instant base = Instant.now().minus(Duration.ofDays(7));
        int perSource = (poolSize + SOURCES - 1) / SOURCES;
        int made = 0;
        // Feeds take turns, a call of up to 500 entries each, so ids interleave across sources as in life.
        for (int from = 0; made < poolSize; from += Math.min(perSource, Publisher.MAX_ITEMS_PER_PUBLISH)) {
            for (int s = 0; s < SOURCES && made < poolSize; s++) {
                int count = Math.min(Math.min(perSource - from, Publisher.MAX_ITEMS_PER_PUBLISH), poolSize - made);
                if (count <= 0) {
                    continue;
                }
                List<NewItem> entries = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    entries.add(Bench.entry(random, "tl-" + s + "-" + (from + i), base.plusSeconds(made + i)));
                }
                pool.addAll(publisher.publish(sourceIds[s], entries).created());
                made += count;
            }
        }
        jdbc.update("DELETE FROM fanout_tasks");
        return pool.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Every person gets {@code perInbox} distinct items of the pool, in multi-row INSERTs of a few
     * people each, in primary-key order, on 2 threads. About a fifth of the entries are read.
     */
    private long fillInboxes(long[] people, long[] pool) {
        java.util.Map<Long, Long> sourceOf = new java.util.HashMap<>();
        jdbc.query("SELECT source_id, item_id FROM item_sources", rs -> {
            sourceOf.put(rs.getLong(2), rs.getLong(1));
        });
        Arrays.sort(pool);
        long[] sourceIds = new long[pool.length];
        for (int i = 0; i < pool.length; i++) {
            sourceIds[i] = sourceOf.get(pool[i]);
        }
        int peoplePerStatement = Math.max(1, 4_000 / perInbox);
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> loaders = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            long seed = random.nextLong();
            loaders.add(Thread.ofPlatform().name("load-" + t).start(() -> {
                SplittableRandom rnd = new SplittableRandom(seed);
                int[] order = new int[pool.length];
                for (int i = 0; i < order.length; i++) {
                    order[i] = i;
                }
                int[] picked = new int[perInbox];
                try (Connection connection = dataSource.getConnection();
                        java.sql.Statement statement = connection.createStatement()) {
                    connection.setAutoCommit(true);
                    StringBuilder sql = new StringBuilder(peoplePerStatement * perInbox * 48);
                    for (int first = next.getAndAdd(peoplePerStatement); first < people.length;
                            first = next.getAndAdd(peoplePerStatement)) {
                        sql.setLength(0);
                        sql.append("INSERT INTO inbox (user_id, item_id, source_id, media, is_read) VALUES ");
                        boolean comma = false;
                        for (int p = first; p < Math.min(people.length, first + peoplePerStatement); p++) {
                            // A partial Fisher-Yates shuffle picks perInbox distinct pool indices.
                            for (int i = 0; i < perInbox; i++) {
                                int j = i + rnd.nextInt(order.length - i);
                                int swap = order[i];
                                order[i] = order[j];
                                order[j] = swap;
                                picked[i] = order[i];
                            }
                            Arrays.sort(picked); // the pool is sorted: rows in primary-key order
                            for (int index : picked) {
                                sql.append(comma ? ", (" : "(").append(people[p]).append(", ").append(pool[index])
                                        .append(", ").append(sourceIds[index]).append(", ").append(MediaType.TEXT.bit())
                                        .append(rnd.nextInt(5) == 0 ? ", TRUE)" : ", FALSE)");
                                comma = true;
                            }
                        }
                        statement.executeUpdate(sql.toString());
                    }
                } catch (SQLException | RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        Bench.join(loaders, Duration.ofMinutes(30));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("filling the inboxes failed", failures.getFirst());
        }
        return jdbc.queryForObject("SELECT COUNT(*) FROM inbox", Long.class);
    }

    private long averageBodyBytes() {
        Long average = jdbc.queryForObject("SELECT CAST(AVG(LENGTH(body)) AS SIGNED) FROM entities WHERE kind = 'item'",
                Long.class);
        return average == null ? 0 : average;
    }
}
