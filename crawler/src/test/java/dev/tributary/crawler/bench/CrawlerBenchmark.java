package dev.tributary.crawler.bench;

import com.rometools.rome.io.SyndFeedInput;
import com.rometools.rome.io.XmlReader;
import dev.tributary.crawler.refresh.CrawlMetrics;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.testing.CrawlerTestApplication;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.bench.Bench;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * {@code ./bench/run crawler}: the crawler end to end (claim, polite conditional fetch, parse,
 * normalise, publish into pub/sub with fan-out running) over a local farm of 10,000 feeds,
 * against two baselines of the same run: Rome alone parsing the same documents from memory,
 * and the farm served to a bare Reactor Netty client that discards the bodies.
 *
 * <p>Round 1 is cold (every feed new: every body parsed, every entry published). Each later
 * round first gives a new entry to a share of the feeds (20%), then makes every feed due: the
 * crawler's conditional requests get 304s for the rest. The headline is the median of the
 * later rounds against the slower baseline. Options: {@code --feeds=10000 --rounds=3
 * --share=0.2 --concurrency=64}, and any {@code --tributary.*} setting. {@code --farm=one-host}
 * runs {@link OneHostFarm} instead: adaptive politeness at the defaults against a peer without it.
 */
public final class CrawlerBenchmark {

    private CrawlerBenchmark() {
    }

    public static void main(String[] argv) throws Exception {
        Bench.Args args = new Bench.Args(argv);
        if (args.text("farm", "").equals("one-host")) {
            OneHostFarm.run(args);
            System.exit(0);
        }
        int feeds = args.integer("feeds", 10_000);
        int rounds = args.integer("rounds", 3);
        double share = args.decimal("share", 0.2);
        int concurrency = args.integer("concurrency", 64);
        Random random = new Random(7);
        try (FeedFarm farm = new FeedFarm(feeds);
                ConfigurableApplicationContext context = Bench.start(CrawlerTestApplication.class, args,
                        "tributary.crawler.concurrency=" + concurrency, "tributary.crawler.per-host-concurrency=" + concurrency,
                        "tributary.crawler.per-address-concurrency=" + concurrency,
                        // Adaptive politeness may not grant less than the fixed limits lifted here.
                        "tributary.crawler.politeness.max-per-host=" + concurrency,
                        "tributary.crawler.politeness.max-per-address=" + concurrency,
                        "tributary.crawler.per-host-delay=0s", "tributary.crawler.allow-private=127.0.0.0/8",
                        "tributary.crawler.min-interval=1h", "tributary.crawler.poll-interval=50ms",
                        "tributary.crawler.jitter=0", "spring.datasource.hikari.maximum-pool-size=20")) {
            System.out.println(Bench.format("crawler benchmark: %,d feeds, %d later rounds with %.0f%% changed, %d fetches at once, %d cores",
                    feeds, rounds, share * 100, concurrency, Runtime.getRuntime().availableProcessors()));
            CrawlRun crawl = new CrawlRun(context, farm);
            crawl.register();

            Bench.Series rome = new Bench.Series("Rome alone");
            Bench.Series netty = new Bench.Series("bare Netty");
            Bench.Series steady = new Bench.Series("crawler");
            Bench.Series parseShare = new Bench.Series("parse share");
            Bench.Series parseCores = new Bench.Series("parse share of cores");
            java.util.Map<String, Bench.Series> refreshCpu = new java.util.LinkedHashMap<>();
            double cold = crawl.round(1);
            System.out.println(Bench.format("round 1 (cold): crawler %,.0f feeds/s; %s", cold, crawl.breakdown()));
            for (int round = 2; round <= rounds + 1; round++) {
                int changed = farm.change(share, random);
                double romeRate = romeAlone(farm.bodies());
                double nettyRate = bareNetty(farm, concurrency);
                java.util.Map<String, Double> cpuBefore = dev.tributary.pubsub.bench.ProcessCpu.snapshot();
                double crawlRate = crawl.round(round);
                java.util.Map<String, Double> cpu = dev.tributary.pubsub.bench.ProcessCpu.spent(cpuBefore,
                        dev.tributary.pubsub.bench.ProcessCpu.snapshot());
                for (String program : List.of("app", "mariadb", "redis", "total")) {
                    refreshCpu.computeIfAbsent(program, p -> new Bench.Series(p)).add(true, cpu.getOrDefault(program, 0.0) / feeds);
                }
                rome.add(true, romeRate);
                netty.add(true, nettyRate);
                steady.add(true, crawlRate);
                parseShare.add(true, crawl.parseShare());
                parseCores.add(true, crawl.parseCoreShare());
                System.out.println(Bench.format("round %d: %,d changed; crawler %,.0f feeds/s; Rome alone %,.0f feeds/s;"
                        + " bare Netty %,.0f fetches/s; %s", round, changed, crawlRate, romeRate, nettyRate, crawl.breakdown()));
            }
            double slower = Math.min(rome.median(), netty.median());
            System.out.println();
            System.out.println("| measure | median | min | max |");
            System.out.println("|---|---:|---:|---:|");
            for (Bench.Series series : List.of(steady, rome, netty)) {
                System.out.println(Bench.format("| %s (per s) | %,.0f | %,.0f | %,.0f |", series.name, series.median(),
                        series.min(), series.max()));
            }
            System.out.println(Bench.format("| parsing, share of refresh time | %.1f%% | %.1f%% | %.1f%% |",
                    parseShare.median() * 100, parseShare.min() * 100, parseShare.max() * 100));
            System.out.println(Bench.format("| parsing, share of the round's core time | %.1f%% | %.1f%% | %.1f%% |",
                    parseCores.median() * 100, parseCores.min() * 100, parseCores.max() * 100));
            System.out.println(Bench.format("| cold round (all new) crawler | %,.0f | | |", cold));
            System.out.println(Bench.format("farm answered %,d full bodies and %,d 304s", farm.fullResponses(),
                    farm.notModifiedResponses()));
            System.out.println(Bench.format("CPU ms per feed refresh (later rounds, %.0f %% changed; user + system from /proc; "
                    + "app = this JVM, the feed farm's serving included): app %.2f, mariadb %.2f, redis %.2f, total %.2f", share * 100,
                    refreshCpu.get("app").median(), refreshCpu.get("mariadb").median(), refreshCpu.get("redis").median(),
                    refreshCpu.get("total").median()));
            dev.tributary.pubsub.bench.BenchResults results = new dev.tributary.pubsub.bench.BenchResults("crawler");
            refreshCpu.forEach((program, series) -> results.put("refresh.cpu_ms." + program, series.median()));
            results.put("refresh.changed_share", share).put("feeds_per_second", steady.median()).write();
            System.out.println(Bench.format("crawler cold vs slower baseline: %.2f", cold / slower));
            System.out.println(Bench.format("crawler: %,.0f feeds/s vs baseline %,.0f feeds/s = %.2f", steady.median(), slower,
                    steady.median() / slower));
        }
        System.exit(0);
    }

    /** Parses every body with Rome on as many threads as cores; feeds/s. */
    static double romeAlone(byte[][] bodies) {
        int threads = Runtime.getRuntime().availableProcessors();
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                SyndFeedInput input = new SyndFeedInput();
                for (int n; (n = next.getAndIncrement()) < bodies.length; ) {
                    try {
                        if (input.build(new XmlReader(new ByteArrayInputStream(bodies[n]))).getEntries().isEmpty()) {
                            throw new IllegalStateException("feed " + n + " parsed empty");
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }));
        }
        Bench.join(workers, Duration.ofMinutes(5));
        return bodies.length / ((System.nanoTime() - start) / 1e9);
    }

    /** GETs every feed once (unconditionally) with a bare Reactor Netty client, discarding bodies; fetches/s. */
    static double bareNetty(FeedFarm farm, int concurrency) {
        ConnectionProvider pool = ConnectionProvider.create("bare-netty", concurrency);
        try {
            HttpClient client = HttpClient.create(pool);
            long start = System.nanoTime();
            Long ok = Flux.range(0, farm.size())
                    .flatMap(n -> client.get().uri(farm.url(n))
                            .responseSingle((response, body) -> body.asByteArray().map(bytes -> response.status().code())
                                    .defaultIfEmpty(response.status().code())), concurrency)
                    .filter(status -> status == 200).count().block(Duration.ofMinutes(5));
            double rate = farm.size() / ((System.nanoTime() - start) / 1e9);
            if (ok == null || ok != farm.size()) {
                throw new IllegalStateException("bare client got " + ok + " of " + farm.size() + " feeds");
            }
            return rate;
        } finally {
            pool.disposeLater().block(Duration.ofSeconds(10));
        }
    }

    /** The crawler's side: registers the farm's feeds and times rounds of crawling them all. */
    private static final class CrawlRun {

        private final ConfigurableApplicationContext context;
        private final FeedFarm farm;
        private final JdbcTemplate jdbc;
        private final CrawlMetrics metrics;
        private double parseBefore;
        private double fetchBefore;
        private double publishBefore;
        private double wallSeconds;

        CrawlRun(ConfigurableApplicationContext context, FeedFarm farm) {
            this.context = context;
            this.farm = farm;
            this.jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            this.metrics = context.getBean(CrawlMetrics.class);
        }

        /** Every farm feed, first fetch a day away (rounds make them due); 10 readers share them (only feeds read are crawled). */
        void register() {
            long start = System.nanoTime();
            CrawlStates states = context.getBean(CrawlStates.class);
            Sources sources = context.getBean(Sources.class);
            AtomicInteger next = new AtomicInteger();
            List<Long> ids = Collections.synchronizedList(new ArrayList<>());
            List<Thread> workers = new ArrayList<>();
            jdbc.update("UPDATE crawl_state SET next_fetch_at = UTC_TIMESTAMP(6) + INTERVAL 1 DAY");
            for (int t = 0; t < 4; t++) {
                workers.add(Thread.ofPlatform().start(() -> {
                    for (int n; (n = next.getAndIncrement()) < farm.size(); ) {
                        long id = sources.feed(farm.url(n).toString()).id();
                        states.register(id, farm.url(n), Duration.ofHours(1), Duration.ofDays(1));
                        ids.add(id);
                    }
                }));
            }
            Bench.join(workers, Duration.ofMinutes(10));
            Subscriptions subscriptions = context.getBean(Subscriptions.class);
            List<Long> sorted = ids.stream().sorted().toList();
            for (int f = 0; f < sorted.size(); f++) {
                subscriptions.subscribe(1_000_000L + f % 10, sorted.get(f), List.<MediaType>of());
            }
            System.out.println(Bench.format("registered %,d feeds in %.1f s", farm.size(), (System.nanoTime() - start) / 1e9));
        }

        /** Makes every farm feed due and waits until each has been fetched {@code round} times; feeds/s. */
        double round(int round) {
            parseBefore = metrics.parseSeconds();
            fetchBefore = metrics.fetchSeconds();
            publishBefore = metrics.publishSeconds();
            String like = farm.urlPrefix() + "%";
            long start = System.nanoTime();
            jdbc.update("UPDATE crawl_state SET next_fetch_at = UTC_TIMESTAMP(6) WHERE url LIKE ?", like);
            long deadline = start + Duration.ofMinutes(20).toNanos();
            while (jdbc.queryForObject("SELECT COUNT(*) FROM crawl_state WHERE url LIKE ? AND fetch_count < ?", Long.class,
                    like, round) > 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("round " + round + " not done after 20 minutes");
                }
                Bench.park(20);
            }
            wallSeconds = (System.nanoTime() - start) / 1e9;
            double rate = farm.size() / wallSeconds;
            Long errors = jdbc.queryForObject("SELECT COUNT(*) FROM crawl_state WHERE url LIKE ? AND status <> 'ok'",
                    Long.class, like);
            if (errors != null && errors > 0) {
                System.out.println(Bench.format("warning: %,d feeds in error after round %d", errors, round));
            }
            return rate;
        }

        /** Parsing's share of the time refreshes spent fetching (with the politeness wait), parsing and publishing. */
        double parseShare() {
            double refresh = fetched() + parsed() + published();
            return refresh <= 0 ? 0 : parsed() / refresh;
        }

        /** Time spent parsing over the round's wall time times the cores: how much of the machine parsing took. */
        double parseCoreShare() {
            return parsed() / (wallSeconds * Runtime.getRuntime().availableProcessors());
        }

        String breakdown() {
            return Bench.format("summed over refreshes: fetch %.1f s, parse %.1f s, publish %.1f s; parsing %.1f%% of"
                    + " refresh time, %.1f%% of the round's core time", fetched(), parsed(), published(), parseShare() * 100,
                    parseCoreShare() * 100);
        }

        private double parsed() {
            return metrics.parseSeconds() - parseBefore;
        }

        private double fetched() {
            return metrics.fetchSeconds() - fetchBefore;
        }

        private double published() {
            return metrics.publishSeconds() - publishBefore;
        }
    }
}
