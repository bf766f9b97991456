package dev.tributary.crawler.bench;

import dev.tributary.crawler.FeedResolver;
import dev.tributary.crawler.fetch.FeedFetcher;
import dev.tributary.crawler.fetch.FetchRequest;
import dev.tributary.crawler.fetch.FetchResult;
import dev.tributary.crawler.ingest.FeedIngest;
import dev.tributary.crawler.refresh.CrawlMetrics;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.HostGate;
import dev.tributary.crawler.testing.CrawlerTestApplication;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.bench.Bench;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import javax.sql.DataSource;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * {@code ./bench/run crawler --farm=one-host}: issue 17's farm, 200 feeds of 20 entries on one
 * fast local host, imported and crawled by Tributary at its default settings until all 4,000
 * entries are stored, against a peer reader without politeness in the same JVM and run: the same
 * import (a source and a subscription per feed), then every feed fetched with the same fetcher,
 * parsed and published by the same ingest, as many at once as the crawler's concurrency, with
 * no gate and no claims. Then the crawl alone: a third farm's feeds registered but not due, all
 * made due at once, against the peer's time after its import. Each measurement uses a fresh
 * farm (a new port: a new host the node has never paced, new sources).
 * Options: {@code --runs=3 --feeds=200 --entries=20}, and any {@code --tributary.*} setting.
 */
final class OneHostFarm {

    private static final Duration LIMIT = Duration.ofMinutes(10);

    private final ConfigurableApplicationContext context;
    private final NamedParameterJdbcTemplate jdbc;
    private final CrawlMetrics metrics;
    private final int feeds;
    private final int entries;
    private long nextUser = 2_000_000L;

    private OneHostFarm(ConfigurableApplicationContext context, int feeds, int entries) {
        this.context = context;
        this.jdbc = new NamedParameterJdbcTemplate(context.getBean(DataSource.class));
        this.metrics = context.getBean(CrawlMetrics.class);
        this.feeds = feeds;
        this.entries = entries;
    }

    static void run(Bench.Args args) throws Exception {
        int runs = args.integer("runs", 3);
        int feeds = args.integer("feeds", 200);
        int entries = args.integer("entries", 20);
        // Defaults throughout, but for loopback, which the SSRF guard refuses unless allowed.
        try (ConfigurableApplicationContext context = Bench.start(CrawlerTestApplication.class, args,
                "tributary.crawler.allow-private=127.0.0.0/8")) {
            OneHostFarm bench = new OneHostFarm(context, feeds, entries);
            int concurrency = context.getBean(dev.tributary.crawler.CrawlerSettings.class).concurrency();
            System.out.println(Bench.format("one-host farm: %,d feeds x %d entries on one local host, %d runs, crawler at"
                    + " its defaults (%d at once), peer without politeness at %d at once, %d cores", feeds, entries, runs,
                    concurrency, concurrency, Runtime.getRuntime().availableProcessors()));
            Bench.Series peer = new Bench.Series("peer without politeness, import and crawl");
            Bench.Series peerImport = new Bench.Series("peer, import alone");
            Bench.Series peerCrawl = new Bench.Series("peer, crawl after its import");
            Bench.Series crawler = new Bench.Series("Tributary at its defaults, import and crawl");
            Bench.Series imports = new Bench.Series("Tributary, import alone (the crawl starts meanwhile)");
            Bench.Series backlog = new Bench.Series("Tributary, 200 due at once (crawl alone)");
            for (int run = 1; run <= runs; run++) {
                Crawl peerRun = bench.peer(concurrency);
                Crawl crawl = bench.tributary();
                Crawl due = bench.backlog();
                peer.add(true, peerRun.seconds);
                peerImport.add(true, peerRun.importSeconds);
                peerCrawl.add(true, peerRun.seconds - peerRun.importSeconds);
                crawler.add(true, crawl.seconds);
                imports.add(true, crawl.importSeconds);
                backlog.add(true, due.seconds);
                System.out.println(Bench.format("run %d: peer %.2f s (import %.2f s); Tributary %.2f s (import %.2f s): %s;"
                        + " Tributary with all due at once %.2f s: %s", run, peerRun.seconds, peerRun.importSeconds,
                        crawl.seconds, crawl.importSeconds, crawl.counters, due.seconds, due.counters));
            }
            System.out.println();
            System.out.println("| seconds until every entry is stored | median | min | max |");
            System.out.println("|---|---:|---:|---:|");
            for (Bench.Series series : List.of(crawler, peer, imports, peerImport, backlog, peerCrawl)) {
                System.out.println(Bench.format("| %s | %.2f | %.2f | %.2f |", series.name, series.median(), series.min(),
                        series.max()));
            }
            System.out.println(Bench.format("crawl alone: Tributary %.2f s vs peer %.2f s = %.2f", backlog.median(),
                    peerCrawl.median(), backlog.median() / peerCrawl.median()));
            System.out.println(Bench.format("crawler one-host: %.2f s vs baseline %.2f s = %.2f", crawler.median(),
                    peer.median(), crawler.median() / peer.median()));
        }
    }

    /** The peer: import, then fetch, parse and store every feed, {@code concurrency} at once. */
    private Crawl peer(int concurrency) throws Exception {
        FeedFetcher fetcher = context.getBean(FeedFetcher.class);
        FeedIngest ingest = context.getBean(FeedIngest.class);
        Sources sources = context.getBean(Sources.class);
        Subscriptions subscriptions = context.getBean(Subscriptions.class);
        try (FeedFarm farm = new FeedFarm(feeds, entries)) {
            long user = nextUser++;
            long start = System.nanoTime();
            List<Long> ids = new ArrayList<>();
            for (int n = 0; n < feeds; n++) {
                long id = sources.feed(farm.url(n).toString()).id();
                subscriptions.subscribe(user, id, List.<MediaType>of());
                ids.add(id);
            }
            double importSeconds = (System.nanoTime() - start) / 1e9;
            Semaphore slots = new Semaphore(concurrency);
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<Integer>> stored = new ArrayList<>();
                for (int n = 0; n < feeds; n++) {
                    URI url = farm.url(n);
                    long id = ids.get(n);
                    stored.add(pool.submit(() -> {
                        slots.acquire();
                        try {
                            FetchResult result = (FetchResult) fetcher.fetch(FetchRequest.of(url)).block(LIMIT);
                            return ingest.publish(id, ingest.read(result.body(), result.contentType(), result.documentBase(),
                                    Instant.now()));
                        } finally {
                            slots.release();
                        }
                    }));
                }
                for (Future<Integer> feed : stored) {
                    feed.get();
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            check(ids, "peer");
            return new Crawl(seconds, importSeconds, "");
        }
    }

    /** Tributary: an import as the API's OPML import does it (register, subscribe), then the crawl loop does the rest. */
    private Crawl tributary() throws Exception {
        FeedResolver resolver = context.getBean(FeedResolver.class);
        Subscriptions subscriptions = context.getBean(Subscriptions.class);
        HostGate gate = context.getBean(HostGate.class);
        long claims = metrics.claims();
        long claimed = metrics.claimedFeeds();
        long deferrals = metrics.deferrals();
        try (FeedFarm farm = new FeedFarm(feeds, entries)) {
            long user = nextUser++;
            long start = System.nanoTime();
            List<Long> ids = new ArrayList<>();
            for (int n = 0; n < feeds; n++) {
                long id = resolver.register(farm.url(n).toString()).id();
                subscriptions.subscribe(user, id, List.<MediaType>of());
                ids.add(id);
            }
            double importSeconds = (System.nanoTime() - start) / 1e9;
            awaitStored(ids, start);
            double seconds = (System.nanoTime() - start) / 1e9;
            String host = HostGate.host(farm.url(0));
            String counters = Bench.format("%,d claims leasing %,d feeds, %,d handed back busy; the farm answered at most"
                    + " %d at once; the host's pace now %d at once, %d ms apart", metrics.claims() - claims,
                    metrics.claimedFeeds() - claimed, metrics.deferrals() - deferrals, farm.mostInFlight(),
                    gate.slots(host), gate.delay(host).toMillis());
            return new Crawl(seconds, importSeconds, counters);
        }
    }

    /**
     * Tributary with a backlog: the farm's feeds registered and subscribed but not yet due, then
     * all made due at once, so that only the crawl (claims, politeness, fetch, parse, store) is
     * timed, from a host the node has never seen.
     */
    private Crawl backlog() throws Exception {
        Sources sources = context.getBean(Sources.class);
        CrawlStates states = context.getBean(CrawlStates.class);
        Subscriptions subscriptions = context.getBean(Subscriptions.class);
        HostGate gate = context.getBean(HostGate.class);
        try (FeedFarm farm = new FeedFarm(feeds, entries)) {
            long user = nextUser++;
            List<Long> ids = new ArrayList<>();
            for (int n = 0; n < feeds; n++) {
                long id = sources.feed(farm.url(n).toString()).id();
                states.register(id, farm.url(n), Duration.ofHours(1), Duration.ofDays(1));
                subscriptions.subscribe(user, id, List.<MediaType>of());
                ids.add(id);
            }
            long claims = metrics.claims();
            long claimed = metrics.claimedFeeds();
            long deferrals = metrics.deferrals();
            long start = System.nanoTime();
            jdbc.update("UPDATE crawl_state SET next_fetch_at = UTC_TIMESTAMP(6) WHERE source_id IN (:ids)",
                    java.util.Map.of("ids", ids));
            awaitStored(ids, start);
            double seconds = (System.nanoTime() - start) / 1e9;
            String host = HostGate.host(farm.url(0));
            String counters = Bench.format("%,d claims leasing %,d feeds, %,d handed back busy; the farm answered at most"
                    + " %d at once; the host's pace now %d at once, %d ms apart", metrics.claims() - claims,
                    metrics.claimedFeeds() - claimed, metrics.deferrals() - deferrals, farm.mostInFlight(),
                    gate.slots(host), gate.delay(host).toMillis());
            return new Crawl(seconds, 0, counters);
        }
    }

    private void awaitStored(List<Long> ids, long start) {
        long deadline = start + LIMIT.toNanos();
        while (stored(ids) < (long) feeds * entries) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("not every entry stored after " + LIMIT + ": " + stored(ids));
            }
            Bench.park(10);
        }
    }

    private long stored(List<Long> ids) {
        Long count = jdbc.queryForObject("SELECT COUNT(*) FROM item_guids WHERE source_id IN (:ids)",
                java.util.Map.of("ids", ids), Long.class);
        return count == null ? 0 : count;
    }

    private void check(List<Long> ids, String who) {
        long stored = stored(ids);
        if (stored != (long) feeds * entries) {
            throw new IllegalStateException(who + " stored " + stored + " entries, not " + (long) feeds * entries);
        }
    }

    private record Crawl(double seconds, double importSeconds, String counters) {
    }
}
