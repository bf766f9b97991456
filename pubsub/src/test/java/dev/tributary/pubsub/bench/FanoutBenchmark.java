package dev.tributary.pubsub.bench;

import dev.tributary.pubsub.FanoutSettings;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.PublishResult;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Switches;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.TimelineSettings;
import dev.tributary.pubsub.Unread;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.bench.Bench.Args;
import dev.tributary.pubsub.bench.Bench.Series;
import dev.tributary.pubsub.inbox.InboxParts;
import dev.tributary.storage.IdGenerator;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code ./bench/run fanout}: durable fan-out end to end (publish, background workers, inbox rows
 * committed, unread counters and notifications in Redis) against the same run's plain JDBC
 * writing the same rows into the same {@code inbox} table, on the embedded MariaDB and Redis.
 *
 * <ul>
 * <li>a) one item to 100,000 subscribers of one feed (one task: one worker walks it batch by batch);
 * <li>b) 1,000 items of one feed (publish calls of at most 500) to its 1,000 subscribers: 1,000,000 rows.
 * </ul>
 * The baseline is the fan-out's own statement shape (a multi-row {@code INSERT IGNORE} of one batch
 * of one item, its own autocommit transaction; the same columns, so each row carries a story as a
 * feed item's does and takes its unique key) issued from a plain JDBC loop on as many threads as
 * there are fan-out workers, with (user, item) keys that do not exist yet. Before every measured
 * step the inbox is truncated, Redis flushed and the audience's unread counters built (empty, as
 * a rebuild of an empty inbox leaves them), so fan-out takes the full counter path of active readers.
 * The inbox trimmer is paused (its interval set to an hour): trimming is not delivery, and the
 * baseline does not trim. Subject and baseline alternate which goes first from round to round.
 * Then unread-count reads/s ({@code HomeFeed.unread}, random people of b's audience, 2 threads)
 * with no fan-out running, and while a fan-out b runs. After the table, the SQL statements and
 * Redis commands per 1,000 rows of fan-out, from the servers' own counters.
 *
 * <p>Options: {@code --rounds=3}, {@code --warmups=20} (unmeasured rounds before them: a round of a) is
 * only a hundred batches, so after six the JIT compilers still spent 0.5–1.8 ms of CPU per 1,000 rows
 * in measured rounds and the fan-out's own code still ran in lower tiers, 2.3 ms against 1.6 from the
 * eighteenth on, 2026-11-29; a node that fans out all day runs it compiled), {@code --scale=1}
 * (shrinks a)'s subscribers and b)'s items; b keeps 1,000 subscribers, one full batch),
 * {@code --baseline-threads} (default: the number of
 * fan-out workers), {@code --limit-seconds=150} per step, {@code --read-threads=2},
 * {@code --read-seconds=5}, {@code --read-rounds} (default: rounds), {@code --redis=cluster} (the
 * embedded Redis Cluster of three masters instead of one Redis: benchmark e), {@code --counted=1}
 * (the share of each audience whose counters are built, spread evenly: 1, everyone, is the worst
 * case the targets are measured at); any option with a dot
 * is a Spring setting, e.g. {@code --tributary.fanout.workers=4}.
 *
 * <p>Then the pull path ({@code --scenarios=abcdg}, default all; the sources of a and b have no
 * {@code source_audiences} row, so they are pushed whatever the threshold):
 * <ul>
 * <li>c) one item to 1,000,000 subscribers ({@code --c-subscribers}, times scale), pushed (one
 * source, fanned out) and pulled (a second source of the same followers, marked pulled): time until
 * it is in every timeline (push: the last task done; pull: the publish's commit, then checked on a
 * follower's page), rows written, SQL statements and Redis commands, and the heap used after a GC;
 * <li>d) home pages (limit 50, newest and one {@code max_id} page) of a person following 200
 * sources of which 0, 5 and 50 are pulled ({@code --d-items} items each, one per source a round,
 * each round in a shuffled order so pulled items are spread through the timeline), each in
 * reads/s (the mean of the measured rounds, round-robin after a warm-up round) and as a ratio to
 * the all-push person's (0 pulled) in the same run; then the SQL statements and Redis commands
 * of each page;
 * <li>g) the unread counts of a pulled source's {@code --g-followers} (1,000) followers, read in
 * batches of 100 after each publish of one item, when the source holds {@code --g-items}
 * (100,1000,3000) items: kept and brought up to date from its sequence vs read whole (the page
 * cache switched off), counts/s, medians of the rounds, same run, and whether the answers agreed.
 * </ul>
 */
public final class FanoutBenchmark {

    private static final String URL = "https://bench.tributary.test/fanout/";

    /** A scenario: publish {@code items} entries to {@code sourceId}, whose subscribers are {@code users}. */
    record Scenario(String tag, long sourceId, List<Long> users, int items) {
        long rows() {
            return (long) users.size() * items;
        }

        String name() {
            return tag + ") " + (items == 1 ? "1 item" : items + " items") + " to " + users.size() + " subscribers";
        }

        Scenario withItems(int count) {
            return new Scenario(tag, sourceId, users, count);
        }
    }

    /** One measured step: rows written, in how long, whether all of them were, and each process's CPU milliseconds. */
    record Outcome(long rows, double seconds, boolean complete, Map<String, Double> cpu) {
        double rate() {
            return rows / seconds;
        }

        /** CPU milliseconds per 1,000 rows of one program ({@link CpuSeries#PROGRAMS}). */
        double cpuPerThousand(String program) {
            return CpuSeries.millis(cpu, program) * 1000.0 / Math.max(1, rows);
        }
    }

    /** CPU per 1,000 rows of each program, one series per program, for one side of one scenario. */
    static final class CpuSeries {
        /**
         * "app" (this JVM), of which "jit" (its JIT compilers), "mariadb", "redis", all of them
         * ("total") and all but the JIT's compiling ("steady": what a node that has run for a while
         * spends; the compilers still work through a run's first few hundred thousand rows).
         */
        static final List<String> PROGRAMS = List.of("app", ProcessCpu.JIT, "mariadb", "redis", "total", STEADY);

        /** One program's CPU milliseconds out of a step's {@link ProcessCpu#spent}, "steady" made from "total" and "jit". */
        static double millis(Map<String, Double> cpu, String program) {
            return program.equals(STEADY) ? cpu.getOrDefault("total", 0.0) - cpu.getOrDefault(ProcessCpu.JIT, 0.0)
                    : cpu.getOrDefault(program, 0.0);
        }
        final String name;
        final Map<String, Series> byProgram = new LinkedHashMap<>();

        CpuSeries(String name) {
            this.name = name;
            PROGRAMS.forEach(program -> byProgram.put(program, new Series(name + " " + program)));
        }

        Outcome add(boolean measured, Outcome outcome) {
            PROGRAMS.forEach(program -> byProgram.get(program).add(measured, outcome.cpuPerThousand(program)));
            return outcome;
        }

        double median(String program) {
            return byProgram.get(program).median();
        }
    }

    /** Every process's CPU but the JIT compilers'. */
    static final String STEADY = "steady";

    /** At most this long before a measured step for the JIT compilers to finish what earlier steps gave them. */
    private static final Duration COMPILERS_IDLE = Duration.ofSeconds(5);

    private final Sources sources;
    private final Publisher publisher;
    private final HomeFeed unread;
    private final Switches switches;
    private final IdGenerator ids;
    private final JdbcTemplate jdbc;
    private final DataSource dataSource;
    private final StringRedisTemplate redis;
    private final FanoutSettings fanout;
    private final long counterTtlSeconds;
    private final Random random = new Random(42);
    private final AtomicLong guids = new AtomicLong();
    /** The last measured statement mix of each scenario's fan-out, for the breakdown. */
    private final Map<String, String> lastMix = new LinkedHashMap<>();
    private volatile int polls;

    private final int rounds;
    /** Unmeasured rounds first: a)'s steps are short (1–3 s), and the JIT kept compiling through a single warm-up. */
    private final int warmups;
    private final double scale;
    private final int baselineThreads;
    private final int readThreads;
    private final Duration limit;
    private final Duration readTime;
    private final int readRounds;
    private final String redisKind;

    FanoutBenchmark(ConfigurableApplicationContext context, Args args) {
        this.sources = context.getBean(Sources.class);
        this.publisher = context.getBean(Publisher.class);
        this.unread = context.getBean(HomeFeed.class);
        this.switches = context.getBean(Switches.class);
        this.ids = context.getBean(IdGenerator.class);
        this.dataSource = context.getBean(DataSource.class);
        this.jdbc = new JdbcTemplate(dataSource);
        this.redis = context.getBean(StringRedisTemplate.class);
        this.fanout = context.getBean(FanoutSettings.class);
        this.counterTtlSeconds = context.getBean(TimelineSettings.class).counterTtl().toSeconds();
        this.rounds = args.integer("rounds", 3);
        this.warmups = Math.max(1, args.integer("warmups", 20));
        this.scale = args.decimal("scale", 1.0);
        this.baselineThreads = args.integer("baseline-threads", fanout.workers());
        this.readThreads = args.integer("read-threads", 2);
        this.limit = args.seconds("limit-seconds", 150);
        this.readTime = args.seconds("read-seconds", 5);
        this.readRounds = args.integer("read-rounds", rounds);
        this.redisKind = args.text("redis", "single");
        this.scenarios = args.text("scenarios", "abcdgs");
        this.cSubscribers = args.integer("c-subscribers", 1_000_000);
        this.dItems = args.integer("d-items", 20);
        this.gFollowers = args.integer("g-followers", 1_000);
        this.gItems = Arrays.stream(args.text("g-items", "100,1000,3000").split(",")).mapToInt(Integer::parseInt).sorted().toArray();
        this.counted = args.decimal("counted", 1.0);
        this.audiences = Arrays.stream(args.text("audiences", "10,100,1000,10000,100000,1000000").split(","))
                .mapToInt(Integer::parseInt).sorted().toArray();
        if (counted < 0 || counted > 1) {
            throw new IllegalArgumentException("--counted is a share of the audience, 0 to 1, not " + counted);
        }
    }

    /** Which of the scenarios a, b, c, d to run ({@code --scenarios}). */
    private final String scenarios;
    private final int cSubscribers;
    private final int dItems;
    private final int gFollowers;
    private final int[] gItems;
    /** The share of each audience whose unread counters are built before a step ({@code --counted}); the rest have none. */
    private final double counted;
    /** s): the audience sizes ({@code --audiences}). */
    private final int[] audiences;
    /** The figures for the capacity model: bench/results/fanout.properties. */
    private final BenchResults results = new BenchResults("fanout");

    public static void main(String[] args) {
        Args options = new Args(args);
        try (ConfigurableApplicationContext context = Bench.start(options, "tributary.timeline.trim-interval=1h",
                // The setup pipelines thousands of commands; on a loaded machine 1 s per command failed them.
                "tributary.redis.command=10s")) {
            new FanoutBenchmark(context, options).run();
        }
    }

    private void run() {
        if (scenarios.contains("a") || scenarios.contains("b")) {
            runPush();
        }
        if (scenarios.contains("c")) {
            pushVersusPull();
        }
        if (scenarios.contains("d")) {
            pulledPages();
        }
        if (scenarios.contains("g")) {
            pulledCounts();
        }
        if (scenarios.contains("s")) {
            audienceScaling();
        }
        results.write();
    }

    // ---------------------------------------------------------------- s): cost per row against audience

    /**
     * s) CPU per 1,000 inbox rows (every process) of one item to 1k, 10k, 100k and 1M followers
     * ({@code --audiences}), pushed, and the same publish to a pulled source of the same followers:
     * the growth of the per-row cost from the smallest audience to the largest is the figure. Small
     * audiences publish one item at a time until {@value #AUDIENCE_ROWS} rows are written, so each
     * figure spans the same work. Then what a row and a counted person take at rest.
     */
    private void audienceScaling() {
        int largest = Arrays.stream(audiences).max().orElseThrow();
        List<Long> everyone = newUsers(largest);
        System.out.println(Bench.format("s) one item to %s followers, push and pull; counters built for everyone; "
                + "CPU ms (user + system) per 1,000 rows (push) or per 1,000 followers (pull)",
                Arrays.stream(audiences).mapToObj(n -> Bench.format("%,d", n)).collect(Collectors.joining(" / "))));
        System.out.println(Bench.format("  %9s %10s %8s %8s %8s %8s   %10s %8s", "followers", "publishes", "app", "mariadb",
                "redis", "total", "pull/1k", "pull/pub"));
        Map<Integer, Double> push = new LinkedHashMap<>();
        warmUpAudiences(everyone);
        for (int audience : audiences) {
            List<Long> users = everyone.subList(0, audience);
            long pushSource = sources.feed(URL + "s-push-" + ids.next()).id();
            long pullSource = sources.feed(URL + "s-pull-" + ids.next()).id();
            subscribe(new Scenario("s", pushSource, users, 1));
            subscribe(new Scenario("s", pullSource, users, 1));
            jdbc.update("INSERT INTO source_audiences (source_id, subscribers, pulled, ever_pulled) VALUES (?, ?, TRUE, TRUE)",
                    pullSource, Math.max(audience, fanout.pullThreshold()));
            int publishes = Math.max(1, Math.min(MAX_PUBLISHES, AUDIENCE_ROWS / audience));
            Map<String, Double> pushed = audienceStep(users, pushSource, publishes, true);
            double pull = audienceStep(users, pullSource, publishes, false).get("total");
            CpuSeries.PROGRAMS.forEach(program -> results.put("s." + audience + ".push.cpu_ms_per_1000_rows." + program,
                    pushed.get(program)));
            results.put("s." + audience + ".pull.cpu_ms_per_1000_followers", pull);
            push.put(audience, pushed.get("total"));
            System.out.println(Bench.format("  %,9d %,10d %8.1f %8.1f %8.1f %8.1f   %10.3f %8.1f", audience, publishes,
                    pushed.get("app"), pushed.get("mariadb"), pushed.get("redis"), pushed.get("total"), pull,
                    pull * audience / 1000.0));
        }
        int from = Arrays.stream(audiences).filter(n -> n >= 1_000).min().orElse(audiences[0]);
        double growth = push.get(largest) / push.get(from);
        results.put("s.growth", growth);
        System.out.println(Bench.format("s) push CPU per row, %,d followers vs %,d: %.1f ms vs %.1f ms per 1,000 rows = %.2fx "
                + "(target <= 1.2x)", largest, from, push.get(largest), push.get(from), growth));
    }

    /**
     * Before s)'s first measured step: a few hundred publishes to a small audience, pushed and
     * pulled, so that the JIT's compiling is not charged to the smallest audience.
     */
    private void warmUpAudiences(List<Long> everyone) {
        List<Long> users = everyone.subList(0, Math.min(everyone.size(), 100));
        long pushSource = sources.feed(URL + "s-warm-push-" + ids.next()).id();
        long pullSource = sources.feed(URL + "s-warm-pull-" + ids.next()).id();
        subscribe(new Scenario("s", pushSource, users, 1));
        subscribe(new Scenario("s", pullSource, users, 1));
        jdbc.update("INSERT INTO source_audiences (source_id, subscribers, pulled, ever_pulled) VALUES (?, ?, TRUE, TRUE)",
                pullSource, Math.max(users.size(), fanout.pullThreshold()));
        audienceStep(users, pushSource, 300, true);
        audienceStep(users, pullSource, 300, false);
    }

    /** Publishes in s) for the smallest audiences, at most: each one waits for its fan-out. */
    private static final int MAX_PUBLISHES = 2_000;

    /** Rows written per audience size in s), at least: enough CPU time for the kernel's 10 ms ticks. */
    private static final int AUDIENCE_ROWS = 100_000;

    /** Publishes one item {@code publishes} times, each to the end; CPU ms per 1,000 rows (push) or followers (pull). */
    private Map<String, Double> audienceStep(List<Long> users, long source, int publishes, boolean push) {
        reset(List.of());
        long emptyRedis = redisUsedMemory();
        reset(users);
        long pulledBefore = jdbc.queryForObject("SELECT COUNT(*) FROM pulled_items", Long.class);
        ProcessCpu.awaitCompilersIdle(COMPILERS_IDLE);
        Map<String, Double> before = ProcessCpu.snapshot();
        double publishing = 0;
        for (int i = 0; i < publishes; i++) {
            List<NewItem> entry = entries(1);
            double started = ProcessCpu.driverMillis();
            publisher.publish(source, entry);
            publishing += ProcessCpu.driverMillis() - started;
            if (!awaitNoTasks(System.nanoTime() + limit.toNanos())) {
                throw new IllegalStateException("s) a publish to " + users.size() + " followers did not finish in " + limit);
            }
        }
        Map<String, Double> cpu = ProcessCpu.withAppWork(ProcessCpu.spent(before, ProcessCpu.snapshot()), publishing);
        long rows = inboxRows();
        if (push && rows != (long) publishes * users.size()) {
            throw new IllegalStateException("s) " + rows + " inbox rows, expected " + (long) publishes * users.size());
        }
        if (!push && (rows != 0 || jdbc.queryForObject("SELECT COUNT(*) FROM pulled_items", Long.class) - pulledBefore != publishes)) {
            throw new IllegalStateException("s) a pulled publish wrote inbox rows or no pulled item");
        }
        if (push && users.size() == Arrays.stream(audiences).max().orElseThrow()) {
            atRest(users, emptyRedis);
        }
        Map<String, Double> perThousand = new LinkedHashMap<>();
        CpuSeries.PROGRAMS.forEach(program -> perThousand.put(program,
                CpuSeries.millis(cpu, program) * 1000.0 / ((long) publishes * users.size())));
        return perThousand;
    }

    /**
     * What an inbox row and a counted person's unread counters take at rest, read after a push
     * step: InnoDB's data and index bytes over the rows, Redis's used memory over the people.
     */
    private void atRest(List<Long> users, long emptyRedis) {
        double perPerson = (redisUsedMemory() - emptyRedis) / (double) users.size();
        jdbc.execute("ANALYZE TABLE inbox");
        Map<String, Object> table = jdbc.queryForMap("SELECT data_length, index_length FROM information_schema.tables "
                + "WHERE table_schema = DATABASE() AND table_name = 'inbox'");
        long rows = inboxRows();
        double rowBytes = (((Number) table.get("data_length")).doubleValue() + ((Number) table.get("index_length")).doubleValue())
                / Math.max(1, rows);
        results.put("inbox.bytes_per_row", rowBytes).put("redis.bytes_per_counted_person", perPerson);
        System.out.println(Bench.format("  at rest after the last push: %,d inbox rows take %.0f bytes a row (InnoDB data + "
                + "indexes, after ANALYZE); Redis holds %.0f bytes per person whose counters are built", rows, rowBytes, perPerson));
    }

    private long redisUsedMemory() {
        Properties info = redis.execute((RedisCallback<Properties>) connection -> connection.serverCommands().info("memory"));
        long used = 0;
        if (info != null) {
            for (String key : info.stringPropertyNames()) {
                if (key.endsWith("used_memory")) {
                    used += Long.parseLong(info.getProperty(key).trim());
                }
            }
        }
        return used;
    }

    // ---------------------------------------------------------------- c) and d): pull

    /** c) One item to a huge audience, pushed and pulled. */
    private void pushVersusPull() {
        int count = Math.max(1, (int) Math.round(cSubscribers * scale));
        List<Long> users = newUsers(count);
        long pushSource = sources.feed(URL + "c-push-" + ids.next()).id();
        long pullSource = sources.feed(URL + "c-pull-" + ids.next()).id();
        subscribe(new Scenario("c", pushSource, users, 1));
        subscribe(new Scenario("c", pullSource, users, 1));
        // Followed through direct inserts: give the pulled source the row subscribing would have written.
        jdbc.update("INSERT INTO source_audiences (source_id, subscribers, pulled, ever_pulled) VALUES (?, ?, TRUE, TRUE)",
                pullSource, Math.max(count, fanout.pullThreshold()));
        System.out.println(Bench.format("c) one item to %,d subscribers, push vs pull (threshold %,d)", count, fanout.pullThreshold()));
        for (boolean pull : List.of(false, true)) {
            reset(List.of());
            System.gc();
            long heapBefore = usedHeap();
            Map<String, Long> sqlBefore = sqlStatus();
            Map<String, long[]> redisBefore = redisStats();
            long pulledBefore = jdbc.queryForObject("SELECT COUNT(*) FROM pulled_items", Long.class);
            polls = 0;
            long start = System.nanoTime();
            long item = publisher.publish(pull ? pullSource : pushSource, entries(1)).created().getFirst();
            boolean complete = awaitNoTasks(start + limit.toNanos());
            double seconds = (System.nanoTime() - start) / 1e9;
            long follower = users.get(random.nextInt(users.size()));
            boolean visible = unread.page(follower, dev.tributary.pubsub.TimelineQuery.newest(1)).stream()
                    .anyMatch(entry -> entry.id() == item);
            long rows = inboxRows() + jdbc.queryForObject("SELECT COUNT(*) FROM pulled_items", Long.class) - pulledBefore;
            String mix = mix(sqlBefore, sqlStatus(), redisBefore, redisStats(), 1000);
            System.gc();
            long heapAfter = usedHeap();
            System.out.println(Bench.format("  %-5s visible everywhere after %8.3f s%s; rows written %,d; heap used %,d MB (%+,d MB); "
                    + "a follower's page shows it: %s", pull ? "pull" : "push", seconds, complete ? "" : " (TIME LIMIT)", rows,
                    heapAfter >> 20, (heapAfter - heapBefore) >> 20, visible));
            System.out.println("        work for the whole publish: " + mix);
        }
    }

    private static long usedHeap() {
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    /** d) Home pages with 0, 5 and 50 pulled sources among 200, against the all-push person's. */
    private void pulledPages() {
        int followed = 200;
        System.out.println(Bench.format("d) home pages (limit 50) of a person following %d sources, %d items each, "
                + "0 / 5 / 50 of them pulled; reads/s on 1 thread for %s", followed, dItems, readTime));
        Map<Integer, Long> people = new LinkedHashMap<>();
        for (int pulled : List.of(0, 5, 50)) {
            long person = ids.next();
            people.put(pulled, person);
            List<Long> followedSources = new ArrayList<>();
            for (int i = 0; i < followed; i++) {
                long source = sources.feed(URL + "d-" + ids.next()).id();
                followedSources.add(source);
                subscribe(new Scenario("d", source, List.of(person), 1));
                if (i < pulled) {
                    jdbc.update("INSERT INTO source_audiences (source_id, subscribers, pulled, ever_pulled) VALUES (?, ?, TRUE, TRUE)",
                            source, Math.max(1, fanout.pullThreshold()));
                }
            }
            // Each round in a shuffled order, so that the pulled sources' items are spread through
            // the timeline as a reader would see them, not all older than the pushed ones of their round.
            List<Long> order = new ArrayList<>(followedSources);
            for (int round = 0; round < dItems; round++) {
                Collections.shuffle(order, random);
                for (long source : order) {
                    publisher.publish(source, entries(1));
                }
            }
        }
        awaitNoTasks(System.nanoTime() + limit.toNanos());
        // Round-robin, and the first round only warms up, so no variant pays for the JIT alone.
        Map<Integer, double[]> rates = new LinkedHashMap<>();
        for (int round = 0; round <= rounds; round++) {
            for (Map.Entry<Integer, Long> variant : people.entrySet()) {
                long person = variant.getValue();
                long cursor = unread.page(person, dev.tributary.pubsub.TimelineQuery.newest(50)).getLast().id();
                double newest = pageReads(person, dev.tributary.pubsub.TimelineQuery.newest(50));
                double deeper = pageReads(person, dev.tributary.pubsub.TimelineQuery.newest(50).olderThan(cursor));
                if (round > 0) {
                    rates.merge(variant.getKey(), new double[] {newest / rounds, deeper / rounds},
                            (a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
                }
            }
        }
        double[] push = rates.get(0);
        rates.forEach((pulled, rate) -> System.out.println(Bench.format(
                "  %2d pulled of %d: newest page %,8.0f reads/s (%.2f of all-push), max_id page %,8.0f reads/s (%.2f of all-push)",
                pulled, followed, rate[0], rate[0] / push[0], rate[1], rate[1] / push[1])));
        // The servers' own counters: what a page costs, whatever else the machine was doing.
        people.forEach((pulled, person) -> {
            long cursor = unread.page(person, dev.tributary.pubsub.TimelineQuery.newest(50)).getLast().id();
            System.out.println(Bench.format("  %2d pulled: per newest page %s; per max_id page %s", pulled,
                    workPerPage(person, dev.tributary.pubsub.TimelineQuery.newest(50)),
                    workPerPage(person, dev.tributary.pubsub.TimelineQuery.newest(50).olderThan(cursor))));
        });
    }

    /**
     * g) The unread counts of a pulled source's followers, read after each of its publishes in
     * batches of 100 as live streams' renders read them, as the source's items accumulate: kept
     * and brought up to date from the source's sequence, against the same counts read whole (the
     * page cache switched off) in the same round.
     */
    private void pulledCounts() {
        int batch = 100;
        long source = sources.feed(URL + "g-" + ids.next()).id();
        List<Long> people = newUsers(gFollowers);
        subscribe(new Scenario("g", source, people, 1));
        jdbc.update("INSERT INTO source_audiences (source_id, subscribers, pulled, ever_pulled) VALUES (?, ?, TRUE, TRUE)",
                source, Math.max(1, fanout.pullThreshold()));
        List<List<Long>> batches = new ArrayList<>();
        for (int from = 0; from < people.size(); from += batch) {
            batches.add(people.subList(from, Math.min(people.size(), from + batch)));
        }
        readAll(batches); // the node reads each follower's list of pulled sources
        people.forEach(unread::unreadVersion); // and draws their stamps, as a client keeping counts has
        System.out.println(Bench.format("g) unread counts of %,d followers of one pulled source (nobody has read anything), "
                + "read in batches of %d after each publish of one item; %d rounds a size, each kept then whole", gFollowers, batch, rounds));
        int published = 0;
        for (int size : gItems) {
            while (published < size - 1) {
                int now = Math.min(Publisher.MAX_ITEMS_PER_PUBLISH, size - 1 - published);
                publisher.publish(source, entries(now));
                published += now;
            }
            readAll(batches); // the kept counts catch up once with the items published in between
            double[] kept = new double[rounds];
            double[] whole = new double[rounds];
            long mismatched = 0;
            for (int round = 0; round < rounds; round++) {
                publisher.publish(source, entries(1));
                published++;
                long start = System.nanoTime();
                Map<Long, Long> keptTotals = readAll(batches);
                kept[round] = people.size() / ((System.nanoTime() - start) / 1e9);
                switches.set(Feature.PAGE_CACHE, false);
                try {
                    start = System.nanoTime();
                    Map<Long, Long> wholeTotals = readAll(batches);
                    whole[round] = people.size() / ((System.nanoTime() - start) / 1e9);
                    mismatched += people.stream().filter(p -> !keptTotals.get(p).equals(wholeTotals.get(p))).count();
                } finally {
                    switches.set(Feature.PAGE_CACHE, true);
                }
                readAll(batches); // kept again, from this publish's sequence
            }
            Arrays.sort(kept);
            Arrays.sort(whole);
            double k = kept[rounds / 2];
            double w = whole[rounds / 2];
            System.out.println(Bench.format("  %,6d items: kept %,9.0f counts/s, whole (baseline) %,9.0f counts/s = %.2f; "
                    + "answers that differed: %d", published, k, w, k / w, mismatched));
        }
    }

    /** Every batch's unread counts, read together as a live streams' render reads them: each person's total. */
    private Map<Long, Long> readAll(List<List<Long>> batches) {
        Map<Long, Long> totals = new HashMap<>();
        for (List<Long> people : batches) {
            unread.unreadByFolder(people).forEach((person, counts) -> totals.put(person, counts.unread().total()));
        }
        return totals;
    }

    /** SQL statements and Redis commands per page, over a hundred pages (the counters' own reads left out). */
    private String workPerPage(long person, dev.tributary.pubsub.TimelineQuery query) {
        int pages = 100;
        Map<String, Long> sqlBefore = sqlStatus();
        Map<String, long[]> redisBefore = redisStats();
        for (int i = 0; i < pages; i++) {
            unread.page(person, query);
        }
        Map<String, long[]> redisAfter = redisStats();
        Map<String, Long> sqlAfter = sqlStatus();
        // Questions counts the SHOW STATUS that read it; INFO counts itself once.
        long statements = sqlAfter.get("Questions") - sqlBefore.get("Questions") - 1;
        long commands = redisAfter.entrySet().stream().filter(e -> !e.getKey().equals("info"))
                .mapToLong(e -> e.getValue()[0] - redisBefore.getOrDefault(e.getKey(), new long[2])[0]).sum();
        return String.format("%.1f SQL statements, %.1f Redis commands", statements / (double) pages, commands / (double) pages);
    }

    private double pageReads(long person, dev.tributary.pubsub.TimelineQuery query) {
        for (int i = 0; i < 50; i++) {
            unread.page(person, query); // warm-up
        }
        long start = System.nanoTime();
        long deadline = start + readTime.toNanos();
        long count = 0;
        while (System.nanoTime() < deadline) {
            unread.page(person, query);
            count++;
        }
        return count / ((System.nanoTime() - start) / 1e9);
    }

    private void runPush() {
        long setupStart = System.nanoTime();
        int wideUsers = Math.max(1, (int) Math.round(100_000 * scale));
        int deepItems = Math.max(1, (int) Math.round(1_000 * scale));
        Scenario wide = new Scenario("a", sources.feed(URL + "wide").id(), newUsers(wideUsers), 1);
        Scenario deep = new Scenario("b", sources.feed(URL + "deep").id(), newUsers(1_000), deepItems);
        subscribe(wide);
        subscribe(deep);
        System.out.println(Bench.format("fanout benchmark: %s (%,d rows); %s (%,d rows, publish calls of <= %d)",
                wide.name(), wide.rows(), deep.name(), deep.rows(), Publisher.MAX_ITEMS_PER_PUBLISH));
        System.out.println("  Redis: " + (redisKind.equals("cluster") ? "embedded Redis Cluster, 3 masters" : "one embedded Redis"));
        System.out.println(Bench.format("  fan-out: %d workers, batches of %d, claims of %d; baseline: plain JDBC INSERT IGNORE "
                + "of %d rows per statement (the fan-out's columns, story included), autocommit, on %d thread(s) (and 1 thread for a, for reference)",
                fanout.workers(), fanout.batchSize(), fanout.claimSize(), fanout.batchSize(), baselineThreads));
        System.out.println(Bench.format("  unread counters built (empty) before each step for %.0f %% of each audience; "
                + "inbox trimmer paused; %d measured rounds after %d warm-up rounds (b on a tenth of its items), %s limit per step; unread reads of "
                + "random people of b's audience on %d thread(s), %d rounds; setup %.1f s",
                counted * 100, rounds, warmups, limit, readThreads, readRounds, (System.nanoTime() - setupStart) / 1e9));

        Series wideRaw = new Series("a) raw INSERT IGNORE, " + baselineThreads + " thr (baseline)");
        Series wideRaw1 = new Series("a) raw INSERT IGNORE, 1 thread (info)");
        Series wideSubject = new Series("a) publish + fan-out, end to end");
        Series deepRaw = new Series("b) raw INSERT IGNORE, " + baselineThreads + " thr (baseline)");
        Series deepSubject = new Series("b) publish + fan-out, end to end");
        Map<String, CpuSeries> cpu = new LinkedHashMap<>();
        for (String key : List.of("a baseline", "a fan-out", "b baseline", "b fan-out")) {
            cpu.put(key, new CpuSeries(key));
        }
        for (int round = 1 - warmups; round <= rounds; round++) {
            boolean measured = round > 0;
            // The warm-up runs b on a tenth of its items: enough for the JIT, not a full million rows.
            Scenario b = measured ? deep : deep.withItems(Math.max(1, deep.items() / 10));
            boolean baselineFirst = round % 2 == 0;
            String label = measured ? "round " + round : "warm-up " + (round + warmups);
            for (Scenario s : Stream.of(wide, b).filter(x -> scenarios.contains(x == wide ? "a" : "b")).toList()) {
                Series raw = s == wide ? wideRaw : deepRaw;
                Series subject = s == wide ? wideSubject : deepSubject;
                CpuSeries rawCpu = cpu.get(s.tag() + " baseline");
                CpuSeries subjectCpu = cpu.get(s.tag() + " fan-out");
                if (baselineFirst) {
                    raw.add(measured, rawCpu.add(measured, report(label, s, "baseline", baseline(s, baselineThreads))).rate());
                    subject.add(measured, subjectCpu.add(measured, report(label, s, "fan-out", subject(s))).rate());
                } else {
                    subject.add(measured, subjectCpu.add(measured, report(label, s, "fan-out", subject(s))).rate());
                    raw.add(measured, rawCpu.add(measured, report(label, s, "baseline", baseline(s, baselineThreads))).rate());
                }
                if (s == wide) {
                    wideRaw1.add(measured, report(label, s, "baseline 1 thread", baseline(s, 1)).rate());
                }
            }
        }

        Series quietReads = new Series("unread reads/s, no fan-out (reference)");
        Series busyReads = new Series("unread reads/s, during fan-out b");
        Series busyFanout = new Series("b) fan-out rows/s under those reads");
        for (int round = 1; round <= readRounds; round++) {
            reset(deep.users());
            quietReads.add(true, reads(deep.users(), null));
            reset(deep.users());
            double[] during = readsDuringFanout(deep);
            busyReads.add(true, during[0]);
            busyFanout.add(true, during[1]);
            System.out.println(Bench.format("  reads round %d: %.0f reads/s quiet, %.0f reads/s during fan-out (%.0f rows/s)",
                    round, quietReads.values.getLast(), during[0], during[1]));
        }

        System.out.println();
        System.out.println(Bench.format("%-44s %14s %14s %14s", "rows/s (reads/s)", "median", "min", "max"));
        for (Series series : List.of(wideRaw, wideRaw1, wideSubject, deepRaw, deepSubject, quietReads, busyReads, busyFanout)) {
            System.out.println(Bench.format("%-44s %14.0f %14.0f %14.0f", series.name, series.median(), series.min(),
                    series.max()));
        }
        System.out.println("work per 1,000 inbox rows of fan-out (last round; server-side counters; the benchmark's own "
                + "polling of fanout_tasks left out; commands run inside a script are counted and timed in its evalsha too):");
        lastMix.values().forEach(mix -> System.out.println("  " + mix));
        printCpu(cpu);
        cpu.forEach((key, series) -> CpuSeries.PROGRAMS.forEach(program -> results.put(
                key.replace(' ', '.') + ".cpu_ms_per_1000_rows." + program, series.median(program))));
        results.put("a.rows_per_second", wideSubject.median()).put("a.baseline.rows_per_second", wideRaw.median())
                .put("b.rows_per_second", deepSubject.median()).put("b.baseline.rows_per_second", deepRaw.median());
        double wideRatio = wideSubject.median() / wideRaw.median();
        double deepRatio = deepSubject.median() / deepRaw.median();
        System.out.println(Bench.format("fan-out %s: %.0f rows/s vs baseline %.0f rows/s = %.2f", wide.name(),
                wideSubject.median(), wideRaw.median(), wideRatio));
        System.out.println(Bench.format("fan-out %s: %.0f rows/s vs baseline %.0f rows/s = %.2f", deep.name(),
                deepSubject.median(), deepRaw.median(), deepRatio));
        System.out.println(Bench.format("unread reads during fan-out: %.0f reads/s vs no fan-out %.0f reads/s = %.2f",
                busyReads.median(), quietReads.median(), busyReads.median() / quietReads.median()));
        // The headline is the weaker scenario, so it never flatters.
        boolean wideIsWeaker = wideRatio <= deepRatio;
        System.out.println(Bench.format("fanout: %.0f rows/s vs baseline %.0f rows/s = %.2f",
                (wideIsWeaker ? wideSubject : deepSubject).median(), (wideIsWeaker ? wideRaw : deepRaw).median(),
                Math.min(wideRatio, deepRatio)));
    }

    private static Outcome report(String label, Scenario s, String side, Outcome outcome) {
        System.out.println(Bench.format("  %-8s %-34s %-18s %,10d rows in %6.2f s = %,9.0f rows/s; CPU ms per 1,000 rows: "
                + "app %.1f (jit %.1f), mariadb %.1f, redis %.1f, total %.1f%s", label, s.name(), side, outcome.rows(),
                outcome.seconds(), outcome.rate(), outcome.cpuPerThousand("app"), outcome.cpuPerThousand(ProcessCpu.JIT),
                outcome.cpuPerThousand("mariadb"), outcome.cpuPerThousand("redis"), outcome.cpuPerThousand("total"),
                outcome.complete() ? "" : "  (TIME LIMIT: incomplete)"));
        return outcome;
    }

    /**
     * CPU per 1,000 inbox rows of every process involved (this JVM, MariaDB, Redis), medians of the
     * measured rounds, fan-out against the raw INSERT IGNORE of the same rows in the same run.
     */
    private static void printCpu(Map<String, CpuSeries> cpu) {
        System.out.println("CPU ms per 1,000 inbox rows (user + system from /proc, median of the measured rounds; "
                + "\"app\" is this JVM: the fan-out workers, or the baseline's JDBC client):");
        System.out.println(Bench.format("  %-14s %9s %9s %9s %9s %9s %9s", "", "app", "(jit)", "mariadb", "redis", "total",
                "steady"));
        cpu.values().forEach(series -> System.out.println(Bench.format("  %-14s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f",
                series.name, series.median("app"), series.median(ProcessCpu.JIT), series.median("mariadb"),
                series.median("redis"), series.median("total"), series.median(STEADY))));
        for (String tag : List.of("a", "b")) {
            CpuSeries subject = cpu.get(tag + " fan-out");
            CpuSeries raw = cpu.get(tag + " baseline");
            if (!subject.byProgram.get("total").values.isEmpty()) {
                for (String program : List.of("total", STEADY)) {
                    System.out.println(Bench.format("fan-out %s) CPU, %s: %.1f ms per 1,000 rows vs baseline %.1f ms per 1,000 rows "
                            + "= %.2fx (target <= 1.6x)", tag, program.equals(STEADY) ? "without the JIT's compiling" : "every thread",
                            subject.median(program), raw.median(program), subject.median(program) / raw.median(program)));
                    Bench.Series paired = subject.byProgram.get(program).perRound(raw.byProgram.get(program));
                    System.out.println(Bench.format("  %s) per round, fan-out ÷ the same round's baseline: median %.2fx (%.2f–%.2f, %d rounds)",
                            tag, paired.median(), paired.min(), paired.max(), paired.size()));
                }
            }
        }
    }

    // ---------------------------------------------------------------- subject

    /** Publishes the scenario's items and waits until every fan-out task is finished. */
    private Outcome subject(Scenario s) {
        reset(s.users());
        List<NewItem> entries = entries(s.items());
        Map<String, Long> sqlBefore = sqlStatus();
        Map<String, long[]> redisBefore = redisStats();
        polls = 0;
        ProcessCpu.awaitCompilersIdle(COMPILERS_IDLE);
        Map<String, Double> cpuBefore = ProcessCpu.snapshot();
        Map<String, Double> threadsBefore = ProcessCpu.threads();
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        int created = 0;
        // The publish is the app's work though the driver thread does it; the driver's polling is not.
        double publishing = ProcessCpu.driverMillis();
        for (int from = 0; from < entries.size(); from += Publisher.MAX_ITEMS_PER_PUBLISH) {
            PublishResult result = publisher.publish(s.sourceId(),
                    entries.subList(from, Math.min(entries.size(), from + Publisher.MAX_ITEMS_PER_PUBLISH)));
            created += result.created().size();
        }
        publishing = ProcessCpu.driverMillis() - publishing;
        boolean complete = awaitNoTasks(deadline);
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Double> cpu = ProcessCpu.withAppWork(ProcessCpu.spent(cpuBefore, ProcessCpu.snapshot()), publishing);
        lastMix.put(s.tag(), s.name() + ": " + mix(sqlBefore, sqlStatus(), redisBefore, redisStats(), s.rows())
                + "\n    this JVM's CPU ms per 1,000 rows by thread: " + threadsPerThousand(threadsBefore, ProcessCpu.threads(), s.rows()));
        if (created != s.items()) {
            throw new IllegalStateException("published " + s.items() + " entries, " + created + " items created");
        }
        long rows = inboxRows();
        if (!complete) {
            abandonTasks();
            return new Outcome(rows, seconds, false, cpu);
        }
        if (rows != s.rows()) {
            throw new IllegalStateException("fan-out finished with " + rows + " inbox rows, expected " + s.rows());
        }
        checkCounters(s);
        return new Outcome(rows, seconds, true, cpu);
    }

    /** The JVM's threads' CPU between two readings, per 1,000 rows, largest first (those under 0.1 ms left out). */
    private static String threadsPerThousand(Map<String, Double> before, Map<String, Double> after, long rows) {
        return ProcessCpu.spent(before, after).entrySet().stream()
                .filter(e -> !e.getKey().equals("total") && e.getValue() * 1000.0 / rows >= 0.1)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .map(e -> Bench.format("%s %.1f", e.getKey(), e.getValue() * 1000.0 / rows))
                .collect(Collectors.joining(", "));
    }

    private List<NewItem> entries(int count) {
        Instant base = Instant.now().minusSeconds(count);
        List<NewItem> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            entries.add(Bench.entry(random, "bench-" + guids.incrementAndGet(), base.plusSeconds(i)));
        }
        return entries;
    }

    private boolean awaitNoTasks(long deadline) {
        while (true) {
            polls++;
            if (pendingTasks() == 0) {
                return true;
            }
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Bench.park(5);
        }
    }

    private long pendingTasks() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM fanout_tasks", Long.class);
    }

    /** After a time-out: drop the tasks (their workers lose the lease at the next batch) and let them notice. */
    private void abandonTasks() {
        jdbc.update("DELETE FROM fanout_tasks");
        Bench.park(3_000);
    }

    /** Unread counters of a few recipients must equal their unread inbox rows: the fan-out is measured doing it right. */
    private void checkCounters(Scenario s) {
        for (int i = 0; i < 10; i++) {
            long user = s.users().get(random.nextInt(s.users().size()));
            long counted = unread.unread(user).total();
            long truth = jdbc.queryForObject("SELECT COUNT(*) FROM inbox WHERE user_id = ? AND is_read = FALSE", Long.class, user);
            if (counted != truth) {
                System.out.println(Bench.format("  WARNING: user %d has %d unread inbox rows but the counter says %d",
                        user, truth, counted));
            }
        }
    }

    // ---------------------------------------------------------------- baseline

    /**
     * The same rows from a plain JDBC loop: per statement one batch of subscribers of one item,
     * as the workers write them; statements handed out to {@code threads} threads in item order.
     */
    private Outcome baseline(Scenario s, int threads) {
        reset(s.users());
        long[] items = new long[s.items()];
        long[] stories = new long[s.items()];
        for (int i = 0; i < items.length; i++) {
            items[i] = ids.next();
            stories[i] = random.nextLong(); // a story is a 64-bit hash of the item's link, as the fan-out's rows carry
        }
        int batch = fanout.batchSize();
        List<Long> users = s.users();
        int perItem = (users.size() + batch - 1) / batch;
        int statements = items.length * perItem;
        AtomicInteger next = new AtomicInteger();
        AtomicLong written = new AtomicLong();
        ProcessCpu.awaitCompilersIdle(COMPILERS_IDLE);
        Map<String, Double> cpuBefore = ProcessCpu.snapshot();
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("raw-" + t).start(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    connection.setAutoCommit(true);
                    PreparedStatement full = connection.prepareStatement(insertSql(batch));
                    for (int i = next.getAndIncrement(); i < statements && System.nanoTime() < deadline; i = next.getAndIncrement()) {
                        long item = items[i / perItem];
                        int from = (i % perItem) * batch;
                        int to = Math.min(users.size(), from + batch);
                        PreparedStatement ps = to - from == batch ? full : connection.prepareStatement(insertSql(to - from));
                        int p = 1;
                        for (int u = from; u < to; u++) {
                            ps.setLong(p++, users.get(u));
                            ps.setLong(p++, item);
                            ps.setLong(p++, s.sourceId());
                            ps.setInt(p++, MediaType.TEXT.bit());
                            ps.setLong(p++, stories[i / perItem]);
                        }
                        written.addAndGet(ps.executeUpdate());
                        if (ps != full) {
                            ps.close();
                        }
                    }
                    full.close();
                } catch (SQLException | RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        Bench.join(workers, limit.plusSeconds(60));
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Double> cpu = ProcessCpu.spent(cpuBefore, ProcessCpu.snapshot());
        if (!failures.isEmpty()) {
            throw new IllegalStateException("baseline failed", failures.getFirst());
        }
        return new Outcome(written.get(), seconds, written.get() == s.rows(), cpu);
    }

    private static String insertSql(int rows) {
        return "INSERT IGNORE INTO inbox (user_id, item_id, source_id, media, is_read, story) VALUES "
                + String.join(", ", Collections.nCopies(rows, "(?, ?, ?, ?, FALSE, ?)"));
    }

    // ---------------------------------------------------------------- unread reads

    /**
     * Reads/s of {@code HomeFeed.unread} for random users of the list on the read threads, for
     * {@code readTime} if {@code fanoutDone} is null, else until it says the fan-out is over
     * (bounded by the step limit).
     */
    private double reads(List<Long> users, BooleanSupplier fanoutDone) {
        long start = System.nanoTime();
        long deadline = start + (fanoutDone == null ? readTime : limit).toNanos();
        AtomicLong count = new AtomicLong();
        List<Thread> readers = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        for (int t = 0; t < readThreads; t++) {
            readers.add(Thread.ofPlatform().name("reader-" + t).start(() -> {
                try {
                    long n = 0;
                    while (!stop.get() && System.nanoTime() < deadline) {
                        unread.unread(users.get(ThreadLocalRandom.current().nextInt(users.size())));
                        n++;
                    }
                    count.addAndGet(n);
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        if (fanoutDone != null) {
            while (!fanoutDone.getAsBoolean() && System.nanoTime() < deadline) {
                Bench.park(5);
            }
            stop.set(true);
        }
        Bench.join(readers, limit.plusSeconds(60));
        double seconds = (System.nanoTime() - start) / 1e9;
        if (!failures.isEmpty()) {
            throw new IllegalStateException("reader failed", failures.getFirst());
        }
        return count.get() / seconds;
    }

    /** Reads/s while fan-out b runs, and that fan-out's rows/s. */
    private double[] readsDuringFanout(Scenario s) {
        List<NewItem> entries = entries(s.items());
        long[] fanoutNanos = new long[1];
        AtomicBoolean done = new AtomicBoolean();
        Thread publishing = Thread.ofPlatform().name("publish").start(() -> {
            long start = System.nanoTime();
            try {
                for (int from = 0; from < entries.size(); from += Publisher.MAX_ITEMS_PER_PUBLISH) {
                    publisher.publish(s.sourceId(),
                            entries.subList(from, Math.min(entries.size(), from + Publisher.MAX_ITEMS_PER_PUBLISH)));
                }
                awaitNoTasks(start + limit.toNanos());
            } finally {
                fanoutNanos[0] = System.nanoTime() - start;
                done.set(true);
            }
        });
        double readRate = reads(s.users(), done::get);
        Bench.join(List.of(publishing), limit.plusSeconds(60));
        long rows = inboxRows();
        if (pendingTasks() > 0) {
            abandonTasks();
        }
        return new double[] {readRate, rows / (fanoutNanos[0] / 1e9)};
    }

    // ---------------------------------------------------------------- where the work goes

    private static final List<String> SQL_COUNTERS = List.of("Questions", "Com_select", "Com_insert", "Com_update",
            "Com_delete", "Com_commit", "Com_rollback", "Com_savepoint", "Com_release_savepoint");

    /** MariaDB's statement counters (global; nothing else runs on this server). */
    private Map<String, Long> sqlStatus() {
        Map<String, Long> status = new HashMap<>();
        jdbc.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('" + String.join("', '", SQL_COUNTERS) + "')",
                (ResultSet rs) -> {
                    status.put(rs.getString(1), rs.getLong(2));
                });
        return status;
    }

    /** Redis commandstats: calls and microseconds per command (summed over a cluster's nodes). */
    private Map<String, long[]> redisStats() {
        Properties info = redis.execute((RedisCallback<Properties>) connection -> connection.serverCommands().info("commandstats"));
        Map<String, long[]> stats = new HashMap<>();
        if (info != null) {
            info.forEach((key, value) -> {
                String name = String.valueOf(key);
                // A cluster's INFO names each node's entries "host:port.cmdstat_…".
                name = name.contains("cmdstat_") ? name.substring(name.indexOf("cmdstat_")) : name;
                if (name.startsWith("cmdstat_")) {
                    long calls = 0;
                    long usec = 0;
                    for (String part : String.valueOf(value).split(",")) {
                        if (part.startsWith("calls=")) {
                            calls = Long.parseLong(part.substring(6));
                        } else if (part.startsWith("usec=")) {
                            usec = Long.parseLong(part.substring(5));
                        }
                    }
                    long[] sum = stats.computeIfAbsent(name.substring(8), n -> new long[2]);
                    sum[0] += calls;
                    sum[1] += usec;
                }
            });
        }
        return stats;
    }

    private String mix(Map<String, Long> sqlBefore, Map<String, Long> sqlAfter, Map<String, long[]> redisBefore,
            Map<String, long[]> redisAfter, long rows) {
        double per = rows / 1000.0;
        StringBuilder text = new StringBuilder();
        // Each poll is one SELECT; the two SHOW STATUS are one Question each.
        double questions = (sqlAfter.get("Questions") - sqlBefore.get("Questions") - polls - 1) / per;
        if (questions < 0) {
            questions = 0;
        }
        text.append(Bench.format("SQL %.1f statements (", questions));
        boolean first = true;
        for (String counter : SQL_COUNTERS.subList(1, SQL_COUNTERS.size())) {
            double n = (sqlAfter.get(counter) - sqlBefore.get(counter) - (counter.equals("Com_select") ? polls : 0)) / per;
            if (n > 0.05) {
                text.append(first ? "" : ", ").append(Bench.format("%s %.1f", counter.substring(4), n));
                first = false;
            }
        }
        text.append("); Redis ");
        List<String> commands = new ArrayList<>();
        long totalCalls = 0;
        for (Map.Entry<String, long[]> entry : redisAfter.entrySet()) {
            long[] before = redisBefore.getOrDefault(entry.getKey(), new long[2]);
            long calls = entry.getValue()[0] - before[0];
            long usec = entry.getValue()[1] - before[1];
            if (calls > 0 && !entry.getKey().equals("info")) {
                totalCalls += calls;
                commands.add(Bench.format("%s %.0f (%.1f ms)", entry.getKey(), calls / per, usec / 1000.0 / per));
            }
        }
        Collections.sort(commands);
        text.append(Bench.format("%.0f commands: ", totalCalls / per)).append(String.join(", ", commands));
        return text.toString();
    }

    // ---------------------------------------------------------------- state

    private List<Long> newUsers(int count) {
        List<Long> users = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            users.add(ids.next());
        }
        return users;
    }

    /** Setup, not measured: subscriptions and subscribers in multi-row INSERTs of 1,000. */
    private void subscribe(Scenario s) {
        List<Long> users = s.users();
        for (int from = 0; from < users.size(); from += 1_000) {
            StringBuilder subscriptions = new StringBuilder(
                    "INSERT INTO subscriptions (user_id, source_id, id, media_mask, created_at) VALUES ");
            StringBuilder subscribers = new StringBuilder("INSERT INTO subscribers (source_id, user_id, media_mask) VALUES ");
            for (int u = from; u < Math.min(users.size(), from + 1_000); u++) {
                String comma = u == from ? "" : ", ";
                subscriptions.append(comma).append('(').append(users.get(u)).append(", ").append(s.sourceId()).append(", ")
                        .append(ids.next()).append(", ").append(MediaType.ALL).append(", UTC_TIMESTAMP(6))");
                subscribers.append(comma).append('(').append(s.sourceId()).append(", ").append(users.get(u)).append(", ")
                        .append(MediaType.ALL).append(')');
            }
            jdbc.update(subscriptions.toString());
            jdbc.update(subscribers.toString());
        }
    }

    private long inboxRows() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM inbox", Long.class);
    }

    /**
     * Empty inbox, empty Redis, and the audience's unread counters built at zero (exactly what a
     * rebuild of an empty inbox writes: the {@code _b} mark, the horizon {@code _h}, a generation), so every step starts alike: for
     * everyone, or with {@code --counted} below 1 for that share, spread evenly (the people who
     * read their counts lately; the others' counters are built at their next read).
     */
    private void reset(List<Long> users) {
        if (pendingTasks() > 0) {
            throw new IllegalStateException("fan-out tasks left over from the previous step");
        }
        truncateInbox();
        redis.execute((RedisCallback<Object>) connection -> {
            connection.serverCommands().flushDb();
            return null;
        });
        byte[] built = "_b".getBytes(StandardCharsets.UTF_8);
        byte[] one = "1".getBytes(StandardCharsets.UTF_8);
        // Built up to the count horizon, as a rebuild writes them (and with its generation mark).
        byte[] horizon = "_h".getBytes(StandardCharsets.UTF_8);
        byte[] countHorizon = Long.toString(jdbc.queryForObject("SELECT item_id FROM count_horizon WHERE id = 1", Long.class))
                .getBytes(StandardCharsets.UTF_8);
        byte[] generation = "_g".getBytes(StandardCharsets.UTF_8);
        List<Long> reading = new ArrayList<>();
        for (int i = 0; i < users.size(); i++) {
            if (Math.floor((i + 1) * counted) > Math.floor(i * counted)) {
                reading.add(users.get(i));
            }
        }
        for (int from = 0; from < reading.size(); from += 1_000) {
            List<Long> chunk = reading.subList(from, Math.min(reading.size(), from + 1_000));
            redis.executePipelined((RedisCallback<Object>) connection -> {
                for (long user : chunk) {
                    byte[] key = counterKey(user);
                    connection.hashCommands().hMSet(key, Map.of(built, one, horizon, countHorizon, generation, one));
                    connection.keyCommands().expire(key, counterTtlSeconds);
                }
                return null;
            });
        }
    }

    /** How long one TRUNCATE of the inbox waits for a lock, and how many tries it gets. */
    private static final int TRUNCATE_WAIT_SECONDS = 5;
    private static final int TRUNCATE_TRIES = 12;

    /**
     * Empties the inbox between steps. In about one run of eight (2026-11-27 to 11-29) the statement
     * waited out InnoDB's lock wait after a step had ended, with no transaction open: so it waits
     * {@value #TRUNCATE_WAIT_SECONDS} s a try, and after each failed try prints, while the lock is
     * still held, what MariaDB and this JVM are doing, to name the holder.
     */
    private void truncateInbox() {
        for (int attempt = 1; ; attempt++) {
            try {
                jdbc.execute((ConnectionCallback<Void>) connection -> {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("SET SESSION lock_wait_timeout = " + TRUNCATE_WAIT_SECONDS
                                + ", innodb_lock_wait_timeout = " + TRUNCATE_WAIT_SECONDS);
                        try {
                            statement.execute("TRUNCATE TABLE inbox");
                        } finally {
                            statement.execute("SET SESSION lock_wait_timeout = DEFAULT, innodb_lock_wait_timeout = DEFAULT");
                        }
                    }
                    return null;
                });
                if (attempt > 1) {
                    System.out.println("  TRUNCATE TABLE inbox done at try " + attempt);
                }
                return;
            } catch (DataAccessException e) {
                System.out.println("  TRUNCATE TABLE inbox, try " + attempt + " of " + TRUNCATE_TRIES + ", failed ("
                        + e.getMostSpecificCause().getMessage() + ")");
                printLockHolders();
                if (attempt == TRUNCATE_TRIES) {
                    throw e;
                }
            }
        }
    }

    /** Every MariaDB connection, open transaction and lock wait, InnoDB's own account of them, and this JVM's threads in Tributary's code. */
    private void printLockHolders() {
        jdbc.queryForList("SELECT id, user, command, time, state, info FROM information_schema.processlist")
                .forEach(row -> System.out.println("    connection " + row));
        jdbc.queryForList("SELECT trx_id, trx_state, trx_started, trx_rows_locked, trx_tables_locked, trx_mysql_thread_id, "
                + "trx_query FROM information_schema.innodb_trx").forEach(row -> System.out.println("    transaction " + row));
        jdbc.queryForList("SELECT * FROM information_schema.innodb_lock_waits").forEach(row -> System.out.println("    lock wait " + row));
        String status = jdbc.queryForObject("SHOW ENGINE INNODB STATUS", (rows, n) -> rows.getString("Status"));
        if (status != null && status.contains("TRANSACTIONS")) {
            String transactions = status.substring(status.indexOf("TRANSACTIONS"));
            int end = transactions.indexOf("--------\nFILE I/O");
            System.out.println("    InnoDB: " + (end > 0 ? transactions.substring(0, end) : transactions).replace("\n", "\n      "));
        }
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            String frames = Arrays.stream(stack).limit(60).map(StackTraceElement::toString)
                    .filter(frame -> frame.contains("dev.tributary")).collect(Collectors.joining("\n        "));
            if (!frames.isEmpty()) {
                System.out.println("    thread " + thread.getName() + ":\n        " + frames);
            }
        });
    }

    private static byte[] counterKey(long user) {
        return InboxParts.counterKey(user).getBytes(StandardCharsets.UTF_8);
    }
}
