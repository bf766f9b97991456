package dev.tributary.pubsub.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Items;
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
 * {@code ./bench/run timeline}: the home timeline's first page ({@code HomeFeed.page(user,
 * TimelineQuery.newest(50))}: the window-bounded inbox query, the multi-get of the items, their
 * decoding) for random people, against the same run's plain JDBC: the newest 50 item ids of the
 * inbox by primary key, then {@code SELECT id, body FROM entities WHERE id IN (...)} reading the
 * bytes. The same threads on both sides (default 2), rounds interleaved with alternating order,
 * independent random people on each side; medians of queries/s and of the rounds' p99 latency.
 *
 * <p>Setup, not measured: a pool of items (default 5,000 of about 1 KB, from 50 feeds) published
 * through {@link Publisher} with the fan-out workers off, then every person's inbox filled with
 * 800 distinct items of the pool (the timeline window) by multi-row INSERTs on 2 threads.
 *
 * <p>Two more variants split the difference, for information: the timeline's own window-bounded
 * inbox SQL through plain JDBC (then the bodies as the baseline reads them), and the baseline's
 * inbox query followed by {@code Items.getAll} (the multi-get with decoding). Also printed: the
 * rows InnoDB reads per first page for either inbox query.
 *
 * <p>Options: {@code --users=10000}, {@code --items=5000} (the pool), {@code --inbox=800},
 * {@code --rounds=5}, {@code --queries=5000} per step, {@code --threads=2},
 * {@code --limit-seconds=30} per step, {@code --breakdown=true} (the two variants above),
 * {@code --content=false} (true: each item also has a full content, issue 47); any
 * option with a dot is a Spring setting, e.g. {@code --tributary.timeline.max-entries=400}.
 */
public final class TimelineBenchmark {

    private static final int PAGE = 50;
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
    private final HomeFeed timeline;
    private final Items items;
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
    private final boolean breakdown;
    private final Args args;
    private final dev.tributary.pubsub.ItemContents contents;
    /** Issue 47's cost: each item of the pool also has a full content (2–27 KB, {@link WordPressPosts}) in item_contents. */
    private final boolean withContent;

    TimelineBenchmark(ConfigurableApplicationContext context, Args args) {
        this.sources = context.getBean(Sources.class);
        this.publisher = context.getBean(Publisher.class);
        this.timeline = context.getBean(HomeFeed.class);
        this.items = context.getBean(Items.class);
        this.contents = context.getBean(dev.tributary.pubsub.ItemContents.class);
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
        this.breakdown = Boolean.parseBoolean(args.text("breakdown", "true"));
        this.withContent = Boolean.parseBoolean(args.text("content", "false"));
        this.args = args;
    }

    public static void main(String[] args) {
        Args options = new Args(args);
        // No fan-out workers: inboxes are filled directly, and nothing runs in the background.
        try (ConfigurableApplicationContext context = Bench.start(options, "tributary.fanout.workers=0")) {
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
                + "step, %s limit, %d measured rounds after 1 warm-up", users, perInbox, window, rows, pool.length, TimelineSeed.SOURCES,
                averageBodyBytes(), PAGE, threads, queries, limit, rounds));
        System.out.println(Bench.format("  setup %.1f s: items published in %.1f s, inboxes filled in %.1f s (%,.0f rows/s); "
                + "inbox table ~%,d MB, InnoDB buffer pool %,d MB", (System.nanoTime() - setupStart) / 1e9, publishSeconds,
                inboxSeconds, rows / inboxSeconds, inboxBytes >> 20, bufferPool >> 20));

        if (withContent) {
            printContentStorage();
        }
        System.out.println(Bench.format("  InnoDB rows read per first page (Handler_read_*, average of 100 people): "
                + "baseline inbox query %.0f, HomeFeed's window-bounded query %.0f", rowsRead(NEWEST, people, false),
                rowsRead(WINDOW, people, true)));
        Variant baseline = new Variant("raw inbox SELECT + entities IN (baseline)", "baseline", this::rawPage);
        Variant subject = new Variant("HomeFeed.page(newest(50))", "timeline",
                (connection, user) -> expect(timeline.page(user, TimelineQuery.newest(PAGE))));
        List<Variant> variants = new ArrayList<>(List.of(baseline, subject));
        if (breakdown) {
            // Where the difference goes: the timeline's window-bounded SQL alone, and the items' decoding alone.
            variants.add(new Variant("raw window-bounded SELECT + entities IN (info)", "window SQL", this::windowPage));
            variants.add(new Variant("raw inbox SELECT + Items.getAll (info)", "decode", this::decodedPage));
        }
        for (int round = 0; round <= rounds; round++) {
            boolean measured = round > 0;
            String label = measured ? "round " + round : "warm-up";
            // Each round starts with the next variant, so none always runs first (or right after another).
            for (int v = 0; v < variants.size(); v++) {
                Variant variant = variants.get((round + v) % variants.size());
                Step step = measure(variant.side(), people);
                variant.rate().add(measured, step.rate());
                variant.p50().add(measured, step.p50());
                variant.p99().add(measured, step.p99());
                System.out.println(Bench.format("  %-8s %-10s %,7d pages in %6.2f s = %,8.0f pages/s, p50 %6.2f ms, p99 %6.2f ms",
                        label, variant.label(), step.queries(), step.seconds(), step.rate(), step.p50(), step.p99()));
            }
        }

        String marking = markAllRead();
        System.out.println();
        System.out.println(Bench.format("%-48s %10s %10s %10s %9s %9s", "pages of " + PAGE + ", " + threads + " threads",
                "median/s", "min/s", "max/s", "p50 ms", "p99 ms"));
        for (Variant variant : variants) {
            System.out.println(Bench.format("%-48s %10.0f %10.0f %10.0f %9.2f %9.2f", variant.name(), variant.rate().median(),
                    variant.rate().min(), variant.rate().max(), variant.p50().median(), variant.p99().median()));
        }
        System.out.println("(p50 and p99: medians over the rounds of each round's percentile)");
        System.out.println(marking);
        System.out.println(Bench.format("timeline p99: %.2f ms vs baseline %.2f ms = %.2f", subject.p99().median(),
                baseline.p99().median(), subject.p99().median() / baseline.p99().median()));
        System.out.println(Bench.format("timeline: %.0f pages/s vs baseline %.0f pages/s = %.2f", subject.rate().median(),
                baseline.rate().median(), subject.rate().median() / baseline.rate().median()));
    }

    /**
     * "Mark all read" over a full unread horizon: {@code --mark-entries} (10,000) unread rows of 50
     * sources in a person's inbox, counters built, then {@code HomeFeed.markReadUpTo(person, max,
     * null)} (batches of 1,000, each a locking read, an UPDATE, the counters moved, a commit)
     * against the same run's plain {@code UPDATE inbox SET is_read = TRUE WHERE user_id = ? AND
     * is_read = FALSE} on an identical inbox (autocommit, no counters); {@code --mark-rounds} (5)
     * rounds, alternating which goes first. Returns the summary line.
     */
    private String markAllRead() {
        int entries = args.integer("mark-entries", 10_000);
        int markRounds = args.integer("mark-rounds", 5);
        Series subject = new Series("markReadUpTo");
        Series plain = new Series("plain UPDATE");
        for (int round = 0; round <= markRounds; round++) {
            boolean measured = round > 0;
            long person = ids.next();
            long other = ids.next();
            fillUnread(person, entries);
            fillUnread(other, entries);
            if (timeline.unread(person).total() != entries) {
                throw new IllegalStateException("expected " + entries + " unread");
            }
            double subjectMs = 0;
            double plainMs = 0;
            for (int side = 0; side < 2; side++) {
                long began = System.nanoTime();
                if ((side + round) % 2 == 0) {
                    int marked = timeline.markReadUpTo(person, Long.MAX_VALUE, null);
                    subjectMs = (System.nanoTime() - began) / 1e6;
                    if (marked != entries || timeline.unread(person).total() != 0) {
                        throw new IllegalStateException("marked " + marked + " of " + entries);
                    }
                } else {
                    int marked = jdbc.update("UPDATE inbox SET is_read = TRUE WHERE user_id = ? AND is_read = FALSE", other);
                    plainMs = (System.nanoTime() - began) / 1e6;
                    if (marked != entries) {
                        throw new IllegalStateException("plain UPDATE marked " + marked);
                    }
                }
            }
            subject.add(measured, subjectMs);
            plain.add(measured, plainMs);
            System.out.println(Bench.format("  %-8s mark all read %,d: markReadUpTo %7.1f ms, plain UPDATE %7.1f ms",
                    measured ? "round " + round : "warm-up", entries, subjectMs, plainMs));
            jdbc.update("DELETE FROM inbox WHERE user_id IN (?, ?)", person, other);
        }
        return Bench.format("mark all read of %,d unread: %.0f ms (%,.0f entries/s, batches of 1,000) vs baseline plain UPDATE %.0f ms "
                + "(%,.0f entries/s) = %.2f", entries, subject.median(), entries / subject.median() * 1000, plain.median(),
                entries / plain.median() * 1000, plain.median() / subject.median());
    }

    /** {@code entries} unread rows of fresh item ids from 50 sources in the person's inbox, by multi-row INSERTs. */
    private void fillUnread(long person, int entries) {
        long first = ids.next();
        for (int from = 0; from < entries; from += 1000) {
            StringBuilder sql = new StringBuilder("INSERT INTO inbox (user_id, item_id, source_id, media, is_read) VALUES ");
            for (int i = from; i < Math.min(entries, from + 1000); i++) {
                sql.append(i == from ? "" : ", ").append('(').append(person).append(", ").append(first + 1 + i).append(", ")
                        .append(1 + i % 50).append(", 1, FALSE)");
            }
            jdbc.update(sql.toString());
        }
    }

    /** A way to read a page, with its figures over the rounds. */
    record Variant(String name, String label, Side side, Series rate, Series p50, Series p99) {
        Variant(String name, String label, Side side) {
            this(name, label, side, new Series(name), new Series(name + " p50"), new Series(name + " p99"));
        }
    }

    // ---------------------------------------------------------------- measuring

    /** {@code queries} pages of random people on {@code threads} threads, bounded by the time limit. */
    private Step measure(Side side, long[] people) {
        long[] latencies = new long[queries];
        long[] chosen = new long[queries];
        for (int i = 0; i < queries; i++) {
            chosen[i] = people[random.nextInt(people.length)];
        }
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("bench-" + t).start(() -> {
                // Plain JDBC keeps one connection per thread; the service borrows from the pool as it does.
                try (Connection connection = dataSource.getConnection()) {
                    for (int i = next.getAndIncrement(); i < queries && System.nanoTime() < deadline; i = next.getAndIncrement()) {
                        long began = System.nanoTime();
                        side.page(connection, chosen[i]);
                        latencies[i] = System.nanoTime() - began;
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
        // The queries done have a latency; those the deadline cut off were never started (left at 0).
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
        return bodies(connection, items, n);
    }

    /** The bodies of these items in one {@code SELECT ... IN}, bytes read, not decoded. */
    private static int bodies(Connection connection, long[] items, int n) throws SQLException {
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

    /**
     * The SQL of {@code HomeFeed} for a first page (the newest 50 inside the window of the
     * newest N, copied from it as of this writing), then the bodies as the baseline reads them.
     */
    private int windowPage(Connection connection, long user) throws SQLException {
        long[] items = new long[PAGE];
        int n = 0;
        try (PreparedStatement ps = connection.prepareStatement(WINDOW)) {
            ps.setLong(1, user);
            ps.setLong(2, user);
            ps.setInt(3, window - 1);
            ps.setInt(4, PAGE);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    items[n++] = rs.getLong(1);
                    rs.getBoolean(2);
                }
            }
        }
        return bodies(connection, items, n);
    }

    private static final String WINDOW = """
            SELECT item_id, is_read FROM inbox
            WHERE user_id = ? AND item_id >= COALESCE(
                (SELECT w.item_id FROM inbox w WHERE w.user_id = ? ORDER BY w.item_id DESC LIMIT 1 OFFSET ?), 0)
            ORDER BY item_id DESC LIMIT ?""";

    /** The baseline's inbox query, then the items through {@code Items.getAll} (one multi-get, decoded). */
    private int decodedPage(Connection connection, long user) throws SQLException {
        List<Long> ids = new ArrayList<>(PAGE);
        try (PreparedStatement ps = connection.prepareStatement(NEWEST)) {
            ps.setLong(1, user);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        int found = items.getAll(ids).size();
        if (found != PAGE) {
            throw new IllegalStateException("expected " + PAGE + " items, got " + found);
        }
        return found;
    }

    /** Rows InnoDB reads for one inbox query, from the session's handler counters. */
    private double rowsRead(String sql, long[] people, boolean window) {
        try (Connection connection = dataSource.getConnection(); PreparedStatement ps = connection.prepareStatement(sql)) {
            long before = handlerReads(connection);
            int count = 100;
            for (int i = 0; i < count; i++) {
                long user = people[random.nextInt(people.length)];
                ps.setLong(1, user);
                if (window) {
                    ps.setLong(2, user);
                    ps.setInt(3, this.window - 1);
                    ps.setInt(4, PAGE);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rs.getLong(1);
                    }
                }
            }
            // Each SHOW STATUS itself reads a few handler rows; they cancel out roughly as both sides pay them.
            return (handlerReads(connection) - before) / (double) count;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long handlerReads(Connection connection) throws SQLException {
        long sum = 0;
        try (java.sql.Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_first', "
                        + "'Handler_read_key', 'Handler_read_last', 'Handler_read_next', 'Handler_read_prev')")) {
            while (rs.next()) {
                sum += rs.getLong(2);
            }
        }
        return sum;
    }

    // ---------------------------------------------------------------- setup

    private long[] publishPool() {
        return TimelineSeed.publishPool(sources, publisher, jdbc, URL, "tl-", poolSize, random, withContent);
    }

    private long fillInboxes(long[] people, long[] pool) {
        return TimelineSeed.fillInboxes(dataSource, jdbc, people, pool, perInbox, random);
    }

    /** Issue 47: what the pool's full contents take at rest, deflated and as InnoDB keeps them, against their raw UTF-8 size. */
    private void printContentStorage() {
        jdbc.execute("ANALYZE TABLE item_contents");
        long count = jdbc.queryForObject("SELECT COUNT(*) FROM item_contents", Long.class);
        long deflated = jdbc.queryForObject("SELECT COALESCE(SUM(LENGTH(body)), 0) FROM item_contents", Long.class);
        long onDisk = jdbc.queryForObject("""
                SELECT data_length + index_length FROM information_schema.tables
                WHERE table_schema = DATABASE() AND table_name = 'item_contents'""", Long.class);
        long raw = contents.findAll(jdbc.queryForList("SELECT item_id FROM item_contents", Long.class)).values().stream()
                .mapToLong(content -> content.html().getBytes(java.nio.charset.StandardCharsets.UTF_8).length).sum();
        long n = Math.max(1, count);
        System.out.println(Bench.format("  full content: %,d items, raw %,d bytes per item (UTF-8 HTML), deflated %,d (%.2f of raw), "
                + "item_contents table %,d bytes per item (InnoDB data + index after ANALYZE, %.2f of raw)", count, raw / n,
                deflated / n, (double) deflated / raw, onDisk / n, (double) onDisk / raw));
    }

    private long averageBodyBytes() {
        Long average = jdbc.queryForObject("SELECT CAST(AVG(LENGTH(body)) AS SIGNED) FROM entities WHERE kind = 'item'",
                Long.class);
        return average == null ? 0 : average;
    }
}
