package dev.tributary.storage.bench;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

import javax.sql.DataSource;

import dev.tributary.storage.Entity;
import dev.tributary.storage.EntityKind;
import dev.tributary.storage.EntityStore;
import dev.tributary.storage.IndexColumn;
import dev.tributary.storage.IndexDefinition;
import dev.tributary.storage.IndexKey;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code ./bench/run storage}: entity put and multi-get through the store against the same run's
 * plain JDBC on an equivalent table, on the embedded MariaDB. The same number of threads on both
 * sides (default 2, one per core here, as a server runs many requests at once); rounds interleaved so
 * that machine noise hits both sides alike; medians of the measured rounds are compared.
 */
public final class StorageBenchmark {

    private static final int PAGE = 50;

    /** A feed item as the crawler will store it: about 1 KB of JSON. */
    public record BenchItem(long sourceId, long published, String title, String url, String summary,
            List<String> tags) {
    }

    static final EntityKind<BenchItem> ITEM = new EntityKind<>("bench_item", BenchItem.class);
    static final EntityKind<BenchItem> PLAIN = new EntityKind<>("bench_plain", BenchItem.class);
    static final IndexDefinition<BenchItem> ITEMS_BY_SOURCE = IndexDefinition.of("bench_items_by_source",
            "bench_idx_items_by_source", ITEM,
            List.of(IndexColumn.bigint("source_id"), IndexColumn.bigint("published")),
            item -> List.of(IndexKey.of(item.sourceId(), item.published())));

    private final EntityStore store;
    private final JdbcTemplate jdbc;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Random random = new Random(42);
    private final AtomicLong rawIds = new AtomicLong(1);

    StorageBenchmark(EntityStore store, DataSource dataSource) {
        this.store = store;
        this.jdbc = new JdbcTemplate(dataSource);
    }

    public static void main(String[] args) {
        Options options = Options.parse(args);
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(BenchApplication.class)
                .web(WebApplicationType.NONE)
                .properties("tributary.embedded.data-dir=target/bench-data", "tributary.embedded.ephemeral=true",
                        "tributary.storage.cleaner.enabled=false",
                        "spring.datasource.hikari.transaction-isolation=TRANSACTION_READ_COMMITTED", "spring.main.banner-mode=off",
                        "logging.level.root=warn", "logging.level.ch.vorburger=warn")
                .run()) {
            new StorageBenchmark(context.getBean(EntityStore.class), context.getBean(DataSource.class))
                    .run(options);
        }
    }

    private void run(Options options) {
        jdbc.execute("""
                CREATE TABLE bench_raw (
                    added_id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
                    id BIGINT NOT NULL, kind VARCHAR(32) NOT NULL, updated DATETIME(6) NOT NULL,
                    body MEDIUMBLOB NOT NULL, UNIQUE KEY bench_raw_id (id))""");
        List<BenchItem> items = items(options.entitiesPerRound());
        List<byte[]> rawBodies = items.stream().map(json::writeValueAsBytes).toList();
        System.out.printf(Locale.ROOT, "storage benchmark: %d entities of %d bytes of JSON on average, batches and pages of %d, "
                + "%d thread(s) on each side, %d measured rounds after 1 warm-up%n", items.size(),
                rawBodies.stream().mapToInt(b -> b.length).sum() / rawBodies.size(), PAGE, options.threads(),
                options.rounds());

        Series rawPut = new Series("raw INSERT (baseline)");
        Series plainPut = new Series("store insertAll, no index");
        Series indexedPut = new Series("store insertAll, 1 index");
        Series rawGet = new Series("raw SELECT ... IN (baseline)");
        Series storeGet = new Series("store getAll");
        List<Long> rawIdsWritten = new CopyOnWriteArrayList<>();
        List<Long> storeIdsWritten = new CopyOnWriteArrayList<>();
        for (int round = 0; round <= options.rounds(); round++) {
            boolean measured = round > 0;
            rawPut.add(measured, rate(items.size(), options.limit(), batch -> rawIdsWritten.addAll(
                    rawInsert(rawBodies.subList(batch * PAGE, Math.min(items.size(), (batch + 1) * PAGE)))),
                    batches(items.size()), options.threads()));
            plainPut.add(measured, rate(items.size(), options.limit(), batch -> store.insertAll(PLAIN,
                    items.subList(batch * PAGE, Math.min(items.size(), (batch + 1) * PAGE))), batches(items.size()), options.threads()));
            indexedPut.add(measured, rate(items.size(), options.limit(), batch -> storeIdsWritten.addAll(
                    store.insertAll(ITEM, items.subList(batch * PAGE, Math.min(items.size(), (batch + 1) * PAGE)))
                            .stream().map(Entity::id).toList()), batches(items.size()), options.threads()));

            List<List<Long>> rawPages = pages(rawIdsWritten, options.pagesPerRound());
            List<List<Long>> storePages = pages(storeIdsWritten, options.pagesPerRound());
            rawGet.add(measured, rate(rawPages.size() * PAGE, options.limit(),
                    page -> expect(rawSelect(rawPages.get(page)), PAGE), rawPages.size(), options.threads()));
            storeGet.add(measured, rate(storePages.size() * PAGE, options.limit(),
                    page -> expect(store.getAll(ITEM, storePages.get(page)).size(), PAGE), storePages.size(), options.threads()));
        }

        System.out.printf(Locale.ROOT, "%-32s %14s %14s %14s%n", "operation", "median/s", "min/s", "max/s");
        for (Series series : List.of(rawPut, plainPut, indexedPut, rawGet, storeGet)) {
            System.out.printf(Locale.ROOT, "%-32s %14.0f %14.0f %14.0f%n", series.name, series.median(), series.min(),
                    series.max());
        }
        double putRatio = indexedPut.median() / rawPut.median();
        double plainRatio = plainPut.median() / rawPut.median();
        double getRatio = storeGet.median() / rawGet.median();
        System.out.printf(Locale.ROOT, "put (no index): %.0f entities/s vs baseline %.0f entities/s = %.2f%n",
                plainPut.median(), rawPut.median(), plainRatio);
        System.out.printf(Locale.ROOT, "put (1 index): %.0f entities/s vs baseline %.0f entities/s = %.2f%n",
                indexedPut.median(), rawPut.median(), putRatio);
        System.out.printf(Locale.ROOT, "multi-get: %.0f entities/s vs baseline %.0f entities/s = %.2f%n",
                storeGet.median(), rawGet.median(), getRatio);
        // The headline is the weaker of put (with its index) and multi-get, so it never flatters.
        boolean putIsWeaker = putRatio <= getRatio;
        Series store = putIsWeaker ? indexedPut : storeGet;
        Series raw = putIsWeaker ? rawPut : rawGet;
        System.out.printf(Locale.ROOT, "storage: %.0f entities/s vs baseline %.0f entities/s = %.2f%n",
                store.median(), raw.median(), Math.min(putRatio, getRatio));
    }

    private List<Long> rawInsert(List<byte[]> bodies) {
        List<Long> ids = new ArrayList<>(bodies.size());
        Timestamp now = Timestamp.from(Instant.now());
        jdbc.batchUpdate("INSERT INTO bench_raw (id, kind, updated, body) VALUES (?, ?, ?, ?)", bodies, bodies.size(),
                (PreparedStatement ps, byte[] body) -> {
                    long id = rawIds.getAndIncrement();
                    ids.add(id);
                    ps.setLong(1, id);
                    ps.setString(2, "bench_raw");
                    ps.setTimestamp(3, now);
                    ps.setBytes(4, body);
                });
        return ids;
    }

    private int rawSelect(List<Long> ids) {
        String marks = String.join(",", Collections.nCopies(ids.size(), "?"));
        return jdbc.query("SELECT id, kind, updated, body FROM bench_raw WHERE id IN (" + marks + ")",
                (ResultSet rs) -> {
                    int rows = 0;
                    while (rs.next()) {
                        rs.getLong(1);
                        rs.getString(2);
                        rs.getTimestamp(3);
                        rs.getBytes(4);
                        rows++;
                    }
                    return rows;
                }, ids.toArray());
    }

    private static void expect(int actual, int expected) {
        if (actual != expected) {
            throw new IllegalStateException("expected " + expected + " rows, read " + actual);
        }
    }

    private static int batches(int items) {
        return (items + PAGE - 1) / PAGE;
    }

    /**
     * Runs {@code step} for 0..steps-1 on {@code threads} threads until done or the time limit;
     * returns units per second.
     */
    private static double rate(int units, Duration limit, IntConsumer step, int steps, int threads) {
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        Runnable worker = () -> {
            for (int i = next.getAndIncrement(); i < steps && System.nanoTime() < deadline; i = next.getAndIncrement()) {
                step.accept(i);
                done.incrementAndGet();
            }
        };
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("bench-" + t).start(worker));
        }
        for (Thread thread : workers) {
            try {
                thread.join(limit.plusSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return units * ((double) done.get() / steps) / seconds;
    }

    private List<List<Long>> pages(List<Long> ids, int count) {
        List<List<Long>> pages = new ArrayList<>(count);
        for (int p = 0; p < count; p++) {
            List<Long> page = new ArrayList<>(PAGE);
            while (page.size() < PAGE) {
                Long id = ids.get(random.nextInt(ids.size()));
                if (!page.contains(id)) {
                    page.add(id);
                }
            }
            pages.add(page);
        }
        return pages;
    }

    private List<BenchItem> items(int count) {
        String[] words = ("feed river item summary people group media video audio image text link source "
                + "crawler fanout inbox timeline unread count subscribe publish entity index store batch write "
                + "read page cursor window trim cleaner tombstone delete update guid hash author title url tag")
                .split(" ");
        List<BenchItem> items = new ArrayList<>(count);
        long now = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            StringBuilder summary = new StringBuilder(900);
            while (summary.length() < 800) {
                summary.append(words[random.nextInt(words.length)]).append(random.nextInt(10) == 0 ? ". " : " ");
            }
            long source = 1 + random.nextInt(200);
            items.add(new BenchItem(source, now - random.nextInt(86_400_000),
                    "Item " + i + " about " + words[random.nextInt(words.length)],
                    "https://example.org/feeds/" + source + "/items/" + Long.toHexString(random.nextLong()),
                    "<p>" + summary + "</p>", List.of(words[random.nextInt(words.length)], words[random.nextInt(words.length)])));
        }
        return items;
    }

    private static final class Series {
        final String name;
        final List<Double> rates = new ArrayList<>();

        Series(String name) {
            this.name = name;
        }

        void add(boolean measured, double rate) {
            if (measured) {
                rates.add(rate);
            }
        }

        double median() {
            double[] sorted = rates.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int n = sorted.length;
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }

        double min() {
            return rates.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        }

        double max() {
            return rates.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        }
    }

    /** Rounds, entities per round, multi-get pages per round, threads per side, and a time limit per measured step. */
    record Options(int rounds, int entitiesPerRound, int pagesPerRound, int threads, Duration limit) {

        static Options parse(String[] args) {
            Map<String, String> given = new java.util.HashMap<>();
            Arrays.stream(args).filter(a -> a.startsWith("--") && a.contains("="))
                    .forEach(a -> given.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1)));
            return new Options(Integer.parseInt(given.getOrDefault("rounds", "5")),
                    Integer.parseInt(given.getOrDefault("entities", "5000")),
                    Integer.parseInt(given.getOrDefault("pages", "1000")),
                    Integer.parseInt(given.getOrDefault("threads", "2")),
                    Duration.ofSeconds(Long.parseLong(given.getOrDefault("limit-seconds", "60"))));
        }
    }

    /** The storage module's beans plus the benchmark's kinds and index (table created before validation). */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @ComponentScan(basePackages = "dev.tributary.storage",
            excludeFilters = @ComponentScan.Filter(type = FilterType.REGEX, pattern = "dev\\.tributary\\.storage\\..*Test.*"))
    static class BenchApplication {

        @Bean
        EntityKind<BenchItem> benchItemKind() {
            return ITEM;
        }

        @Bean
        EntityKind<BenchItem> benchPlainKind() {
            return PLAIN;
        }

        @Bean
        IndexDefinition<BenchItem> benchItemsBySource() {
            return ITEMS_BY_SOURCE;
        }

        @Bean
        Object benchIndexTable(JdbcTemplate jdbc) throws SQLException {
            jdbc.execute(ITEMS_BY_SOURCE.createTableSql());
            return ITEMS_BY_SOURCE.table();
        }
    }
}
