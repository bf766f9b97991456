package dev.tributary.pubsub.bench;

import dev.tributary.pubsub.ItemSearch;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.SearchPage;
import dev.tributary.pubsub.SearchQuery;
import dev.tributary.pubsub.SearchText;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.bench.Bench.Args;
import dev.tributary.pubsub.bench.Bench.Series;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.IndexBackfill;
import dev.tributary.storage.IndexDefinition;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code ./bench/run search}: {@code ItemSearch.search} (a first page of 20) for people whose
 * reach is the whole corpus, against the same run's plain indexed lookup of one term (the query's
 * first: {@code SELECT item_id FROM item_terms WHERE term = ? LIMIT 20}, then the bodies by
 * {@code SELECT ... FROM entities WHERE id IN}); and the index's build rate (a back-fill of
 * {@code item_terms} over every item, by storage's {@code IndexBackfill}) against the raw insert
 * rate of the same rows (plain JDBC multi-row INSERTs into a copy of the table).
 *
 * <p>Setup: {@code --items} (1,000,000) items of {@code --sources} (1,000) feeds published through
 * {@link Publisher} in chunks of 500 on 2 threads (the index kept inline), with titles and ~300
 * characters of summary drawn Zipf-like from 4,000 Latin words and 2,500 Han characters (plus
 * the seed feeds' two titles now and then); {@code --people} (20) each subscribed to every feed
 * and holding 1,000 inbox rows. Queries: rare, middling and common words, two-word queries,
 * two- and four-character Chinese, the seed queries ({@code 垃圾回收}, {@code redis}), two prefixes and a phrase.
 * Options: {@code --rounds=5}, {@code --queries=2000} per step, {@code --threads=2},
 * {@code --limit-seconds=30}, {@code --raw-rows=2000000}, {@code --build=false} (the deferred index's rate while publishing instead of a second build).
 */
public final class SearchBenchmark {

    private static final int PAGE = 20;
    private static final int LATIN = 4_000;
    private static final String HAN = han();

    private final Sources sources;
    private final Publisher publisher;
    private final ItemSearch search;
    private final IdGenerator ids;
    private final IndexBackfill backfill;
    private final IndexDefinition<?> itemTerms;
    private final DataSource dataSource;
    private final JdbcTemplate jdbc;
    private final int items;
    private final int feeds;
    private final int people;
    private final int rounds;
    private final int queries;
    private final int threads;
    private final int rawRows;
    private final Duration limit;
    private final boolean build;
    private final Random random = new Random(42);

    SearchBenchmark(ConfigurableApplicationContext context, Args args) {
        this.sources = context.getBean(Sources.class);
        this.publisher = context.getBean(Publisher.class);
        this.search = context.getBean(ItemSearch.class);
        this.ids = context.getBean(IdGenerator.class);
        this.backfill = context.getBean(IndexBackfill.class);
        this.itemTerms = context.getBeansOfType(IndexDefinition.class).values().stream()
                .filter(index -> index.name().equals("item_terms")).findFirst().orElseThrow();
        this.dataSource = context.getBean(DataSource.class);
        this.jdbc = new JdbcTemplate(dataSource);
        this.items = args.integer("items", 1_000_000);
        this.feeds = args.integer("sources", 1_000);
        this.people = args.integer("people", 20);
        this.rounds = args.integer("rounds", 5);
        this.queries = args.integer("queries", 2_000);
        this.threads = args.integer("threads", 2);
        this.rawRows = args.integer("raw-rows", 2_000_000);
        this.limit = args.seconds("limit-seconds", 30);
        this.build = Boolean.parseBoolean(args.text("build", "true"));
    }

    public static void main(String[] args) {
        Args options = new Args(args);
        try (ConfigurableApplicationContext context = Bench.start(options, "tributary.fanout.workers=0")) {
            new SearchBenchmark(context, options).run();
        }
    }

    private void run() {
        long[] feedIds = new long[feeds];
        for (int i = 0; i < feeds; i++) {
            feedIds[i] = sources.feed("https://bench.tributary.test/search/" + i).id();
        }
        long publishStart = System.nanoTime();
        long[] itemIds = publishAll(feedIds);
        double publishSeconds = (System.nanoTime() - publishStart) / 1e9;
        double lagSeconds = awaitIndexed();
        long termRows = jdbc.queryForObject("SELECT COUNT(*) FROM item_terms", Long.class);
        System.out.println(Bench.format("search benchmark: %,d items of %,d feeds published in %.1f s (%,.0f items/s; the "
                + "deferred index caught up %.1f s after the last publish); item_terms %,d rows (%.1f a item), %,d MB; "
                + "entities %,d MB", items, feeds, publishSeconds, items / publishSeconds, lagSeconds, termRows,
                termRows / (double) items, tableMb("item_terms"), tableMb("entities")));

        long[] persons = seedPeople(feedIds, itemIds);
        jdbc.execute("ANALYZE TABLE item_terms, subscriptions, inbox");
        List<String> texts = queries();

        Variant baseline = new Variant("plain lookup of one term + bodies IN (baseline)", "lookup", this::plainLookup);
        Variant subject = new Variant("ItemSearch.search (first page of 20)", "search", (connection, person, text) -> {
            SearchPage page = search.search(person, SearchQuery.of(SearchText.parse(text), PAGE));
            return page.hits().size();
        });
        List<Variant> variants = List.of(baseline, subject);
        AtomicLong hits = new AtomicLong();
        for (int round = 0; round <= rounds; round++) {
            boolean measured = round > 0;
            for (int v = 0; v < variants.size(); v++) {
                Variant variant = variants.get((round + v) % variants.size());
                Step step = measure(variant.side(), persons, texts, hits);
                variant.rate().add(measured, step.rate());
                variant.p50().add(measured, step.p50());
                variant.p99().add(measured, step.p99());
                System.out.println(Bench.format("  %-8s %-7s %,6d queries in %6.2f s = %,7.0f queries/s, p50 %7.2f ms, p99 %7.2f ms",
                        measured ? "round " + round : "warm-up", variant.label(), step.queries(), step.seconds(), step.rate(),
                        step.p50(), step.p99()));
            }
        }
        System.out.println();
        System.out.println("per query (search, one person, median of 5 runs, hits on the first page / ms):");
        for (String text : texts) {
            long[] times = new long[5];
            int found = 0;
            for (int i = 0; i < times.length; i++) {
                long began = System.nanoTime();
                found = search.search(persons[0], SearchQuery.of(SearchText.parse(text), PAGE)).hits().size();
                times[i] = System.nanoTime() - began;
            }
            Arrays.sort(times);
            SearchText parsed = SearchText.parse(text);
            // A query of prefixes only has no plain term: count the items of the terms starting with its first prefix.
            long df = parsed.terms().isEmpty()
                    ? jdbc.queryForObject("SELECT COUNT(*) FROM item_terms WHERE term LIKE ?", Long.class, parsed.prefixes().getFirst() + "%")
                    : jdbc.queryForObject("SELECT COUNT(*) FROM item_terms WHERE term = ?", Long.class, parsed.terms().getFirst());
            System.out.println(Bench.format("  %-24s %2d hits %8.2f ms  (first term in %,d items)", text, found, times[2] / 1e6, df));
        }
        // Last: it rewrites item_terms, and on a busy machine it is the longest step.
        String build = this.build ? buildRates(termRows) : deferredRate(termRows, publishSeconds + lagSeconds);
        System.out.println();
        System.out.println(Bench.format("%-56s %10s %10s %10s %9s %9s", "queries, " + threads + " threads", "median/s", "min/s",
                "max/s", "p50 ms", "p99 ms"));
        for (Variant variant : variants) {
            System.out.println(Bench.format("%-56s %10.0f %10.0f %10.0f %9.2f %9.2f", variant.name(), variant.rate().median(),
                    variant.rate().min(), variant.rate().max(), variant.p50().median(), variant.p99().median()));
        }
        System.out.println("(p50 and p99: medians over the rounds of each round's percentile)");
        System.out.println(build);
        System.out.println(Bench.format("search p99: %.2f ms vs baseline %.2f ms = %.2f", subject.p99().median(),
                baseline.p99().median(), subject.p99().median() / baseline.p99().median()));
        System.out.println(Bench.format("search: %.0f queries/s vs baseline %.0f queries/s = %.2f", subject.rate().median(),
                baseline.rate().median(), subject.rate().median() / baseline.rate().median()));
    }

    // ---------------------------------------------------------------- the corpus

    /** Seconds until the deferred index has written every published item (bounded by --limit-seconds × 20). */
    private double awaitIndexed() {
        long start = System.nanoTime();
        long deadline = start + limit.multipliedBy(20).toNanos();
        while (jdbc.queryForObject("SELECT COUNT(*) FROM index_pending", Long.class) > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the deferred index did not catch up in " + limit.multipliedBy(20));
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** Publishes every item through Publisher, chunks of 500 per feed, on 2 threads; their ids. */
    private long[] publishAll(long[] feedIds) {
        long[] itemIds = new long[items];
        AtomicInteger nextChunk = new AtomicInteger();
        int chunk = 500;
        int chunks = (items + chunk - 1) / chunk;
        Instant base = Instant.now().minus(Duration.ofDays(365));
        List<Thread> workers = new ArrayList<>();
        AtomicInteger done = new AtomicInteger();
        for (int t = 0; t < 2; t++) {
            int seed = t;
            workers.add(Thread.ofPlatform().name("publish-" + t).start(() -> {
                Random words = new Random(1000 + seed);
                for (int c = nextChunk.getAndIncrement(); c < chunks; c = nextChunk.getAndIncrement()) {
                    long feed = feedIds[c % feedIds.length];
                    List<NewItem> entries = new ArrayList<>(chunk);
                    for (int i = c * chunk; i < Math.min(items, (c + 1) * chunk); i++) {
                        entries.add(entry(words, "s" + i, base.plusSeconds(i * 30L), i));
                    }
                    List<Long> created = publisher.publish(feed, entries).created();
                    for (int k = 0; k < created.size(); k++) {
                        itemIds[c * chunk + k] = created.get(k);
                    }
                    int n = done.addAndGet(created.size());
                    if (n % 100_000 < chunk) {
                        System.out.println(Bench.format("  published %,d", n));
                    }
                }
            }));
        }
        Bench.join(workers, Duration.ofHours(6));
        return itemIds;
    }

    /** A title of 5 words and a summary of ~300 characters: Latin words and runs of Han, Zipf-like. */
    private static NewItem entry(Random random, String guid, Instant published, int i) {
        String title;
        if (i % 5_000 == 17) {
            title = "Java垃圾回收调优";
        } else if (i % 5_000 == 42) {
            title = "MemcacheDB, Tokyo Tyrant, Redis performance test";
        } else {
            title = text(random, 5);
        }
        StringBuilder summary = new StringBuilder("<p>");
        while (summary.length() < 300) {
            summary.append(text(random, 8)).append(". ");
        }
        return new NewItem(guid, title, summary.append("</p>").toString(), "https://example.org/" + guid, null,
                MediaType.TEXT, List.of(), List.of(), published);
    }

    /** {@code words} tokens: half Latin words, half runs of 2–4 Han characters, both Zipf-like. */
    private static String text(Random random, int words) {
        StringBuilder text = new StringBuilder();
        for (int w = 0; w < words; w++) {
            if (random.nextBoolean()) {
                text.append(w == 0 ? "" : " ").append(latin(zipf(random, LATIN)));
            } else {
                int run = 2 + random.nextInt(3);
                text.append(w == 0 ? "" : " ");
                for (int k = 0; k < run; k++) {
                    text.append(HAN.charAt(zipf(random, HAN.length())));
                }
            }
        }
        return text.toString();
    }

    /** A rank from 0 to n - 1, rank r drawn with weight about 1 / (r + 1). */
    private static int zipf(Random random, int n) {
        return (int) Math.min(n - 1, Math.floor(Math.exp(random.nextDouble() * Math.log(n + 1.0)) - 1));
    }

    /** The word of a rank: letters from its number, so ranks stay distinct words. */
    private static String latin(int rank) {
        String letters = "bcdfghjklmnpqrstvwxz";
        String vowels = "aeiou";
        StringBuilder word = new StringBuilder();
        int n = rank + 1;
        while (n > 0) {
            word.append(letters.charAt(n % letters.length())).append(vowels.charAt((n / letters.length()) % vowels.length()));
            n /= letters.length() * vowels.length();
        }
        return word.toString();
    }

    private static String han() {
        StringBuilder han = new StringBuilder();
        for (int cp = 0x4E00; han.length() < 2_500; cp += 3) {
            han.appendCodePoint(cp);
        }
        return han.toString();
    }

    /** People subscribed to every feed (rows written directly: no back-fill) with 1,000 inbox rows each. */
    private long[] seedPeople(long[] feedIds, long[] itemIds) {
        long[] persons = new long[people];
        for (int p = 0; p < people; p++) {
            persons[p] = ids.next();
            long person = persons[p];
            List<Object[]> subs = new ArrayList<>();
            List<Object[]> subscribers = new ArrayList<>();
            for (long feed : feedIds) {
                subs.add(new Object[] {person, feed, ids.next()});
                subscribers.add(new Object[] {feed, person});
            }
            jdbc.batchUpdate("INSERT INTO subscriptions (user_id, source_id, id, media_mask, created_at) VALUES (?, ?, ?, 31, NOW(6))",
                    subs);
            jdbc.batchUpdate("INSERT INTO subscribers (source_id, user_id, media_mask) VALUES (?, ?, 31)", subscribers);
            List<Object[]> inbox = new ArrayList<>();
            for (int k = 0; k < 1_000; k++) {
                int i = items - 1 - k;
                inbox.add(new Object[] {person, itemIds[i], feedIds[(i / 500) % feedIds.length]});
            }
            jdbc.batchUpdate("INSERT IGNORE INTO inbox (user_id, item_id, source_id, media, is_read) VALUES (?, ?, ?, 1, FALSE)", inbox);
        }
        return persons;
    }

    /** Rare, middling and common words, two-word queries, Chinese of two and four characters, the seed queries, prefixes and a phrase. */
    private List<String> queries() {
        return List.of("垃圾回收", "redis", "Tokyo Tyrant", latin(0), latin(30), latin(300), latin(3_000),
                latin(5) + " " + latin(200), latin(1) + " " + latin(2), HAN.substring(0, 2), HAN.substring(100, 102),
                HAN.charAt(0) + "" + HAN.charAt(1) + HAN.charAt(0) + HAN.charAt(2), HAN.charAt(1500) + "" + HAN.charAt(1501),
                // Issue 48's syntax: a prefix alone, a prefix with a word, a phrase of the two commonest words.
                latin(300).substring(0, 3) + "*", latin(3_000).substring(0, 3) + "* " + latin(5),
                "\"" + latin(0) + " " + latin(1) + "\"");
    }

    // ---------------------------------------------------------------- the index's build rate

    /**
     * Back-fills item_terms from scratch with storage's IndexBackfill, against plain multi-row
     * INSERTs of the same rows (the first {@code --raw-rows}) into a copy of the table. The line to print.
     */
    private String buildRates(long termRows) {
        Raw raw = rawInserts(termRows);
        jdbc.execute("TRUNCATE TABLE item_terms");
        jdbc.update("UPDATE entity_indexes SET state = 'backfilling', backfill_cursor = 0, backfill_high_water = NULL WHERE name = 'item_terms'");
        long buildStart = System.nanoTime();
        IndexBackfill.Report report = backfill.run(itemTerms);
        double buildSeconds = (System.nanoTime() - buildStart) / 1e9;
        jdbc.execute("ANALYZE TABLE item_terms");
        return Bench.format("index build (IndexBackfill of item_terms): %,d items, %,d rows in %.1f s = %,.0f items/s, %,.0f rows/s "
                + "vs baseline raw multi-row INSERT of %,d of the same rows in %.1f s = %,.0f rows/s = %.2f", report.entities(),
                report.rowsInserted(), buildSeconds, report.entities() / buildSeconds, report.rowsInserted() / buildSeconds,
                raw.rows(), raw.seconds(), raw.rate(), (report.rowsInserted() / buildSeconds) / raw.rate());
    }

    /**
     * With {@code --build=false} (a corpus too large to index twice): the deferred index's own
     * rate while the corpus was published, from the first publish until it caught up, against
     * the same raw INSERTs. The line to print.
     */
    private String deferredRate(long termRows, double seconds) {
        Raw raw = rawInserts(termRows);
        return Bench.format("index build (the deferred index, publish to caught up): %,d items, %,d rows in %.1f s = %,.0f items/s, "
                + "%,.0f rows/s vs baseline raw multi-row INSERT of %,d of the same rows in %.1f s = %,.0f rows/s = %.2f", items,
                termRows, seconds, items / seconds, termRows / seconds, raw.rows(), raw.seconds(), raw.rate(),
                (termRows / seconds) / raw.rate());
    }

    record Raw(int rows, double seconds) {
        double rate() {
            return rows / seconds;
        }
    }

    /** Plain multi-row INSERTs of the first {@code --raw-rows} index rows, shuffled, into an empty copy of the table. */
    private Raw rawInserts(long termRows) {
        jdbc.execute("DROP TABLE IF EXISTS item_terms_raw");
        jdbc.execute("CREATE TABLE item_terms_raw LIKE item_terms");
        int rows = (int) Math.min(rawRows, termRows);
        List<Object[]> sample = jdbc.query("SELECT term, source_id, item_id, weight, entity_id FROM item_terms LIMIT " + rows,
                (rs, n) -> new Object[] {rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)});
        Collections.shuffle(sample, random);
        long rawStart = System.nanoTime();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            for (int from = 0; from < sample.size(); from += 1_000) {
                int to = Math.min(sample.size(), from + 1_000);
                String sql = "INSERT INTO item_terms_raw (term, source_id, item_id, weight, entity_id) VALUES "
                        + String.join(", ", Collections.nCopies(to - from, "(?, ?, ?, ?, ?)"));
                try (PreparedStatement ps = connection.prepareStatement(sql)) {
                    int p = 1;
                    for (int i = from; i < to; i++) {
                        for (Object value : sample.get(i)) {
                            ps.setObject(p++, value);
                        }
                    }
                    ps.executeUpdate();
                }
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        double rawSeconds = (System.nanoTime() - rawStart) / 1e9;
        jdbc.execute("DROP TABLE item_terms_raw");
        return new Raw(sample.size(), rawSeconds);
    }

    // ---------------------------------------------------------------- measuring

    interface Side {
        int query(Connection connection, long person, String text) throws SQLException;
    }

    record Variant(String name, String label, Side side, Series rate, Series p50, Series p99) {
        Variant(String name, String label, Side side) {
            this(name, label, side, new Series(name), new Series(name + " p50"), new Series(name + " p99"));
        }
    }

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

    private Step measure(Side side, long[] persons, List<String> texts, AtomicLong hits) {
        long[] latencies = new long[queries];
        AtomicInteger next = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("bench-" + t).start(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    for (int i = next.getAndIncrement(); i < queries && System.nanoTime() < deadline; i = next.getAndIncrement()) {
                        long began = System.nanoTime();
                        hits.addAndGet(side.query(connection, persons[i % persons.length], texts.get(i % texts.size())));
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
        long[] measured = Arrays.stream(latencies).filter(l -> l > 0).toArray();
        return new Step(measured.length, seconds, measured);
    }

    private static final String LOOKUP = "SELECT item_id FROM item_terms WHERE term = ? LIMIT " + PAGE;
    private static final String PREFIX_LOOKUP = "SELECT item_id FROM item_terms WHERE term LIKE ? LIMIT " + PAGE;

    /**
     * The query's first term looked up by its index (a query of prefixes only: its first prefix, one
     * range of the same index), then up to 20 bodies by id: what any one-term index read costs.
     */
    private int plainLookup(Connection connection, long person, String text) throws SQLException {
        SearchText parsed = SearchText.parse(text);
        boolean prefix = parsed.terms().isEmpty();
        List<Long> found = new ArrayList<>(PAGE);
        try (PreparedStatement ps = connection.prepareStatement(prefix ? PREFIX_LOOKUP : LOOKUP)) {
            ps.setString(1, prefix ? parsed.prefixes().getFirst() + "%" : parsed.terms().getFirst());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getLong(1));
                }
            }
        }
        if (found.isEmpty()) {
            return 0;
        }
        String in = "SELECT id, body FROM entities WHERE id IN (" + String.join(", ", Collections.nCopies(found.size(), "?")) + ")";
        int bodies = 0;
        try (PreparedStatement ps = connection.prepareStatement(in)) {
            for (int i = 0; i < found.size(); i++) {
                ps.setLong(i + 1, found.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    bodies += rs.getBytes(2).length > 0 ? 1 : 0;
                }
            }
        }
        return bodies;
    }

    private long tableMb(String table) {
        return jdbc.queryForObject("SELECT (data_length + index_length) >> 20 FROM information_schema.tables "
                + "WHERE table_schema = DATABASE() AND table_name = ?", Long.class, table);
    }
}
