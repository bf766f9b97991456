package dev.tributary.api.bench;

import dev.tributary.TributaryApplication;
import dev.tributary.api.item.ItemViews;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.bench.Bench;
import dev.tributary.pubsub.bench.BenchResults;
import dev.tributary.pubsub.bench.Bench.Args;
import dev.tributary.pubsub.bench.Bench.Series;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./bench/run http}: the running app over HTTP on 127.0.0.1, with 10,000 people whose
 * inboxes are full (800 entries of ~1 KB items), each with a personal access token. A closed-loop
 * load generator in the same JVM ({@link LoadGenerator}: keep-alive connections on virtual
 * threads, tokens in turn; {@code --generator=process}: the same in a JVM of its own on the same
 * machine, {@link LoadProcess}) drives each endpoint at 64, 256 and 1,000 connections, first with no
 * live stream open, then with 10,000 idle streams ({@code GET /api/v1/streaming/home}) held by a
 * {@link StreamHolders} process on the same machine while a feed all of them follow gets an item
 * every 5 s (fan-out and the streams' announcements run beside the reads: {@link OpenStreams}).
 * Per cell: requests/s, p50/p99/p999, every non-2xx response counted, and the JVM's stop-the-world
 * GC pauses and allocation rate in the measured window ({@link JvmCounters}); per stream count,
 * the live heap each open stream holds. <b>Baselines</b>, same run: {@code GET
 * /api/v1/bench/constant} ({@link ConstantController}), the cheapest authenticated endpoint,
 * returning a constant body the size of a 50-item home-timeline page; and under it the machine's
 * floor, bare Reactor Netty serving the same body ({@link NettyFloor}).
 *
 * <p>Each round runs every endpoint at every connection count (the order of the endpoints
 * rotates from round to round), each cell a short warm-up then the measured window; figures are
 * medians over the rounds. Targets (issue 20): the home timeline at least 0.50 of the baseline's
 * requests/s and unread counts at least 0.80 in every cell, p99 under 50 ms at 256 connections
 * (judged paced at the load the throughput target asks, {@link Paced}; the closed loop's p99 at
 * saturation is printed beside it), no errors, at most 20 KB of heap per open stream.
 *
 * <p>Options: {@code --users=10000}, {@code --items=5000} (the pool), {@code --inbox=800},
 * {@code --connections=64,256,1000}, {@code --streams=0,10000} (open streams per phase),
 * {@code --stream-rate=0.2} (items a second to the streams' feed), {@code --floor=true} (the Netty
 * floor), {@code --rounds=3}, {@code --seconds=12} measured and {@code --warmup=3} per cell,
 * {@code --first-warmup=10} per endpoint before the first round, {@code --max-requests=5000000}
 * per cell, {@code --catch-up=true} (before each phase's rounds, each endpoint reads every person
 * once: the rounds measure people who poll, whose pages and counts a node keeps, not first reads,
 * whose share would otherwise depend on how far the warm-up got, and following the streams' feed
 * voids every kept page and count; the pass's own rate is printed as the first reads' figure),
 * {@code --paced=true} (each round, after the 256-connection cells, the targeted endpoints and
 * their baselines paced: {@link Paced}), {@code --rate-limit=true} (every request counted in Redis as in production, under limits no run
 * reaches; false: not counted, so no endpoint pays the rate limit's round trip),
 * {@code --generator=jvm} (or {@code process}), {@code --top-up=true} (every person read once before
 * each app endpoint's cell: {@link #topUp}),
 * {@code --pacing=own} (each endpoint and the constant one paced at {@code --paced-share=0.5} of its own
 * closed-loop requests/s: the tails at equal load of issue 51; {@code target}: at the load the
 * throughput target asks, as before), {@code --reader-logins=1000} (people signed in through
 * ClientLogin for the Google Reader endpoints),
 * {@code --endpoints=home,unread,greader-ids} (known names: home, unread, me, greader-ids; or
 * {@code name=/path?query}, comma-separated, no comma inside a path); any option with a dot is a
 * Spring setting.
 */
public final class HttpBenchmark {

    /** The constant endpoint's two bodies: a timeline page's size, and an unread answer's size. */
    private static final String BASELINE = "baseline";
    private static final String SMALL_BASELINE = "baseline-s";
    /** Bare Reactor Netty serving the baseline's body: the machine's floor, not a Spring endpoint. */
    private static final String FLOOR = "netty";
    /** Endpoints whose names start so are called as a Google Reader app, with a GoogleLogin Auth value. */
    private static final String READER = "greader";
    private static final int PAGE = 50;
    private static final int P99_CONNECTIONS = 256;
    private static final double STREAM_BYTES_TARGET = 20 * 1024;
    private static final double P99_TARGET_MILLIS = 50;
    /** The server's processes whose CPU a request costs; "server" is their sum (a load process's "java" is left out). */
    private static final List<String> CPU_PARTS = List.of("app", "mariadb", "redis", "server");
    /** Issue 51: each endpoint's p99 paced at half its own capacity, at most this many times the constant endpoint's. */
    private static final double TAIL_RATIO_TARGET = 3;

    /** The endpoints known by name, with the share of the baseline's requests/s the issue asks of them (NaN: none). */
    private static final Map<String, Endpoint> KNOWN = Map.of(
            "home", new Endpoint("home", "/api/v1/timelines/home?limit=" + PAGE, 0.50, BASELINE),
            "unread", new Endpoint("unread", "/api/v1/unread", 0.80, SMALL_BASELINE),
            "me", new Endpoint("me", "/api/v1/me", Double.NaN, SMALL_BASELINE),
            // What a Google Reader app asks first on every sync: the ids of the newest 1,000 unread.
            "greader-ids", new Endpoint("greader-ids", "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list"
                    + "&xt=user/-/state/com.google/read&n=1000&output=json", Double.NaN, BASELINE),
            // The web front end: the same unread call through a browser session (compared with the
            // bearer call, so the ratio is the session's cost), and a page shell.
            "unread-web", new Endpoint("unread-web", "/api/v1/unread", Double.NaN, "unread", true, "application/json"),
            "page", new Endpoint("page", "/", Double.NaN, SMALL_BASELINE, true, "text/html"));

    /**
     * An endpoint under load, and what it is compared with: a baseline (a constant body of about
     * its answer's size) or another endpoint. {@code viaSession}: called as a signed-in browser.
     */
    record Endpoint(String name, String path, double target, String comparedWith, boolean viaSession, String accept) {
        Endpoint(String name, String path, double target, String comparedWith) {
            this(name, path, target, comparedWith, false, "application/json");
        }

        boolean baseline() {
            return name.equals(BASELINE) || name.equals(SMALL_BASELINE) || name.equals(FLOOR);
        }
    }

    /**
     * An endpoint with a throughput target, and its baseline, each paced at {@value #P99_CONNECTIONS}
     * connections to the requests/s that target asks of it (the target's share of the baseline's
     * closed-loop requests/s in the same round): the latency a reader sees at that load, measured
     * from each request's due time. In a closed loop at saturation a latency is only the connections
     * over the requests/s (Little's law), so the p99 target is judged here.
     */
    record Paced(Endpoint endpoint, int streams, Series offered, Cell subject, Cell base) {
        Paced(Endpoint endpoint, Endpoint base, int streams) {
            this(endpoint, streams, new Series("offered req/s"), new Cell(endpoint, P99_CONNECTIONS, streams),
                    new Cell(base, P99_CONNECTIONS, streams));
        }
    }

    /** One endpoint at one connection count, over the rounds. */
    record Cell(Endpoint endpoint, int connections, int streams, Series rate, Series p50, Series p99, Series p999,
            Series pauses, Series maxPause, Series allocation, Map<Integer, Long> failed, long[] ioErrors,
            Map<String, Series> cpu, Series bodyBytes) {
        Cell(Endpoint endpoint, int connections, int streams) {
            this(endpoint, connections, streams, new Series(endpoint.name() + " req/s"), new Series("p50"), new Series("p99"),
                    new Series("p999"), new Series("gc pauses"), new Series("max pause"), new Series("alloc MB/s"),
                    new TreeMap<>(), new long[1], cpuSeries(), new Series("body bytes"));
        }

        /** CPU ms per request of each server process: this JVM ("app"), MariaDB, Redis, and their sum. */
        static Map<String, Series> cpuSeries() {
            Map<String, Series> cpu = new LinkedHashMap<>();
            for (String program : CPU_PARTS) {
                cpu.put(program, new Series(program + " cpu ms/request"));
            }
            return cpu;
        }

        String key() {
            return key(endpoint.name(), connections, streams);
        }

        static String key(String endpoint, int connections, int streams) {
            return endpoint + "@" + connections + "/" + streams;
        }

        long errors() {
            return failed.values().stream().mapToLong(Long::longValue).sum() + ioErrors[0];
        }
    }

    private final ConfigurableApplicationContext context;
    private final int users;
    private final int items;
    private final int inbox;
    private final int[] connections;
    private final int[] streams;
    private final double streamRate;
    private final boolean floor;
    private final int rounds;
    private final Duration measured;
    private final Duration warmup;
    private final Duration firstWarmup;
    private final boolean catchUp;
    private final long maxRequests;
    private final List<Endpoint> endpoints;
    private final int sessions;
    private final String label;
    /** Whether each round also runs the targeted endpoints paced at 256 connections ({@link Paced}). */
    private final boolean paced;
    /** Whether each app endpoint's cell starts after every person was read once ({@link #topUp}). */
    private final boolean topUp;
    /** Whether the load generator runs in the server's JVM ({@code --generator=jvm}) or in one of its own ({@code process}). */
    private final boolean inProcess;
    /** The endpoint the last line reports; empty: the weakest ratio among those with targets. */
    private final String headline;
    /** People who sign in through ClientLogin for the Google Reader endpoints ({@code --reader-logins}). */
    private final int readerLoginCount;
    /** Paced cells: at a share of each endpoint's own closed-loop rate ({@code --pacing=own}) or at its target's load. */
    private final boolean pacedAtOwnRate;
    /** The share of its own closed-loop requests/s each endpoint is paced at ({@code --paced-share}). */
    private final double pacedShare;

    HttpBenchmark(ConfigurableApplicationContext context, Args args) {
        this.context = context;
        this.users = args.integer("users", 10_000);
        this.items = args.integer("items", 5_000);
        this.inbox = args.integer("inbox", 800);
        this.connections = Arrays.stream(args.text("connections", "64,256,1000").split(",")).mapToInt(Integer::parseInt).toArray();
        this.streams = Arrays.stream(args.text("streams", "0,10000").split(",")).mapToInt(Integer::parseInt).sorted().toArray();
        this.streamRate = Double.parseDouble(args.text("stream-rate", "0.2"));
        this.floor = Boolean.parseBoolean(args.text("floor", "true"));
        this.rounds = args.integer("rounds", 3);
        this.measured = args.seconds("seconds", 12);
        this.warmup = args.seconds("warmup", 3);
        this.firstWarmup = args.seconds("first-warmup", 10);
        this.catchUp = Boolean.parseBoolean(args.text("catch-up", "true"));
        this.maxRequests = Long.parseLong(args.text("max-requests", "5000000"));
        this.endpoints = endpoints(args.text("endpoints", "home,unread,greader-ids"));
        this.sessions = args.integer("sessions", 100);
        this.label = args.text("label", "http");
        this.headline = args.text("headline", "");
        this.paced = Boolean.parseBoolean(args.text("paced", "true"));
        this.topUp = Boolean.parseBoolean(args.text("top-up", "true"));
        String generator = args.text("generator", "jvm");
        if (!generator.equals("jvm") && !generator.equals("process")) {
            throw new IllegalArgumentException("--generator is jvm or process, not " + generator);
        }
        this.inProcess = generator.equals("jvm");
        this.readerLoginCount = args.integer("reader-logins", 1_000);
        String pacing = args.text("pacing", "own");
        if (!pacing.equals("own") && !pacing.equals("target")) {
            throw new IllegalArgumentException("--pacing is own or target, not " + pacing);
        }
        this.pacedAtOwnRate = pacing.equals("own");
        this.pacedShare = args.decimal("paced-share", 0.5);
    }

    public static void main(String[] args) {
        Args options = new Args(args);
        long errors;
        // The web server on a free port of 127.0.0.1; no crawling, one fan-out worker (inboxes are
        // filled directly; it only feeds the open streams), every request counted by the rate limit
        // as in production but under limits no run reaches (--rate-limit=false: not counted at all,
        // as before 2026-11-26), streams from one address allowed, and the baseline endpoint.
        boolean rateLimit = Boolean.parseBoolean(options.text("rate-limit", "true"));
        try (ConfigurableApplicationContext context = Bench.start(TributaryApplication.class, options,
                "spring.main.web-application-type=servlet", "server.address=127.0.0.1", "server.port=0",
                "tributary.bench.constant-endpoint=true", "tributary.crawler.concurrency=0",
                "tributary.fanout.workers=1", "tributary.api.rate-limit.enabled=" + rateLimit,
                "tributary.api.rate-limit.requests=" + Integer.MAX_VALUE,
                "tributary.api.rate-limit.anonymous-requests=" + Integer.MAX_VALUE,
                "tributary.api.rate-limit.page-requests=" + Integer.MAX_VALUE,
                "tributary.api.stream.per-address=100000", "tributary.api.stream.per-node=100000",
                "logging.level.org.springframework.boot.thymeleaf=error", "logging.level.org.springdoc=error")) {
            errors = new HttpBenchmark(context, options).run();
        }
        if (errors > 0) {
            System.exit(1);
        }
    }

    /** Returns the errors seen in the measured windows (there should be none). */
    private long run() {
        HttpSeed.People people = new HttpSeed(context).seed(users, items, inbox);
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        InetSocketAddress server = new InetSocketAddress("127.0.0.1", port);
        String token = people.tokens().getFirst();
        byte[] page = timelinePage(port, token, people.ids()[0]);
        context.getBean(ConstantController.class).body(page);

        List<Endpoint> all = new ArrayList<>();
        all.add(new Endpoint(BASELINE, ConstantController.PATH, Double.NaN, BASELINE));
        if (endpoints.stream().anyMatch(e -> e.comparedWith().equals(SMALL_BASELINE))) {
            context.getBean(ConstantController.class).smallBody(unreadAnswer(port, token));
            all.add(new Endpoint(SMALL_BASELINE, ConstantController.SMALL_PATH, Double.NaN, SMALL_BASELINE));
        }
        all.addAll(endpoints);
        String bearer = "Authorization: Bearer " + token;
        List<String> cookies = endpoints.stream().anyMatch(Endpoint::viaSession)
                ? WebSignIn.cookies(port, Math.min(sessions, users), context.getEnvironment().getProperty(
                        "tributary.web.session-cookie", "TRIBUTARY_SESSION"))
                : List.of();
        for (Endpoint endpoint : all) {
            System.out.println(probe(port, endpoint.viaSession() ? cookies.getFirst() : bearer, endpoint));
        }
        List<String> bearers = people.tokens().stream().map(each -> "Authorization: Bearer " + each).toList();
        List<String> readerLogins = readerLogins(port, people);
        try (NettyFloor netty = new NettyFloor(ConstantController.PATH, page);
                LoadProcess process = inProcess ? null : LoadProcess.start()) {
            Load byToken = process == null ? new LoadGenerator(server, bearers) : process.generator(server, bearers);
            Load bySession = cookies.isEmpty() ? byToken
                    : process == null ? new LoadGenerator(server, cookies) : process.generator(server, cookies);
            Load onNetty = process == null ? new LoadGenerator(netty.address(), bearers)
                    : process.generator(netty.address(), bearers);
            Load byReader = readerLogins.isEmpty() ? byToken
                    : process == null ? new LoadGenerator(server, readerLogins) : process.generator(server, readerLogins);
            if (floor) {
                all.add(1, new Endpoint(FLOOR, ConstantController.PATH, Double.NaN, FLOOR));
            }
            Loads loads = new Loads(byToken, bySession, onNetty, byReader);
            System.out.println(Bench.format("warm-up: each endpoint %d s at %d connections; then for %s open streams, "
                    + "%d rounds of every endpoint at %s connections, each %d s warm-up + %d s measured (cap %,d requests "
                    + "per cell); tokens of %,d people in turn%s; rate limit %s; collector %s; load generator %s", firstWarmup.toSeconds(),
                    connections[0], Arrays.toString(streams), rounds, Arrays.toString(connections), warmup.toSeconds(),
                    measured.toSeconds(), maxRequests, people.tokens().size(), cookies.isEmpty() ? ""
                            : Bench.format(" (browser sessions of %,d people for the web endpoints)", cookies.size()),
                    context.getEnvironment().getProperty("tributary.api.rate-limit.enabled", Boolean.class, true)
                            ? "counting every request" : "off",
                    JvmCounters.collectors(), inProcess ? "in the server's JVM" : "in a JVM of its own"));
            for (Endpoint endpoint : all) {
                loads.of(endpoint).run(endpoint.path(), endpoint.accept(), connections[0], firstWarmup, Duration.ZERO,
                        maxRequests);
            }
            Map<String, Cell> cells = new LinkedHashMap<>();
            Map<String, Paced> pacedCells = new LinkedHashMap<>();
            List<OpenStreams.Opened> opened = new ArrayList<>();
            JvmCounters jvm = new JvmCounters();
            for (int open : streams) {
                for (Endpoint endpoint : all) {
                    for (int n : connections) {
                        Cell cell = new Cell(endpoint, n, open);
                        cells.put(cell.key(), cell);
                    }
                }
                OpenStreams held = open == 0 ? null : OpenStreams.open(context, port, people.ids(), people.tokens(), open,
                        streamRate, lifetime(all.size()));
                try {
                    if (held != null) {
                        opened.add(held.opened());
                        System.out.println(Bench.format("streams: %,d open, %,d refused, in %.1f s; live heap %,.0f bytes per "
                                + "open stream; %s", held.opened().open(), held.opened().failed(), held.opened().seconds(),
                                held.opened().heapBytesPerStream(), streamRate > 0
                                        ? Bench.format("a feed they follow gets an item every %.1f s", 1 / streamRate)
                                        : "no items published to them"));
                    }
                    if (catchUp) {
                        catchUp(all, loads, people.tokens().size(), open);
                    }
                    measure(all, loads, cells, pacedCells, jvm, open, people.tokens().size());
                    if (held != null) {
                        System.out.println("streams: " + held.progress());
                    }
                } finally {
                    if (held != null) {
                        held.close();
                    }
                }
            }
            return report(cells, pacedCells, opened);
        }
    }

    /** Longer than every round of one stream count could take. */
    private Duration lifetime(int endpoints) {
        return warmup.plus(measured).plusSeconds(60).multipliedBy((long) rounds * endpoints * connections.length).plusMinutes(10);
    }

    /** The load generators: by token and by browser session on the app, and by token on the Netty floor. */
    private record Loads(Load byToken, Load bySession, Load onNetty, Load byReader) {
        Load of(Endpoint endpoint) {
            return endpoint.name().equals(FLOOR) ? onNetty : endpoint.viaSession() ? bySession
                    : endpoint.name().startsWith(READER) ? byReader : byToken;
        }
    }

    /**
     * For the Google Reader endpoints: {@code GoogleLogin} Auth values from {@code /accounts/ClientLogin}
     * (each person's token as the password, as an app's "API password"), of the first
     * {@code --reader-logins} people, used in turn; none when no such endpoint runs.
     */
    private List<String> readerLogins(int port, HttpSeed.People people) {
        if (endpoints.stream().noneMatch(e -> e.name().startsWith(READER))) {
            return List.of();
        }
        HttpClient http = HttpClient.newHttpClient();
        List<String> logins = new ArrayList<>();
        try {
            for (int i = 0; i < Math.min(readerLoginCount, people.tokens().size()); i++) {
                logins.add("Authorization: GoogleLogin auth=" + GoogleReaderBenchmark.clientLogin(http, port,
                        Bench.format("bench_%06d", i), people.tokens().get(i)));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return logins;
    }

    /**
     * Every person's first read of each app endpoint since the streams' follow (one request per
     * person, tokens in turn), printed as such; bounded in time like any cell.
     */
    private void catchUp(List<Endpoint> all, Loads loads, int people, int open) {
        for (Endpoint endpoint : all) {
            if (endpoint.name().equals(FLOOR) || endpoint.name().startsWith(BASELINE)) {
                continue;
            }
            Map<String, Double> before = pageReads();
            LoadGenerator.Result result = loads.of(endpoint).run(endpoint.path(), endpoint.accept(), connections[0], Duration.ZERO,
                    Duration.ofMinutes(5), people);
            System.out.println(Bench.format("  catch-up %-10s each of %,d people once at %d connections: %,d 2xx in %.1f s = %,.0f "
                    + "req/s (%s), p50 %.2f ms, p99 %.2f ms, errors %,d%s", endpoint.name(), people, connections[0], result.requests(),
                    result.seconds(), result.rate(), open == 0 ? "first reads" : "first reads since following the streams' feed",
                    result.latencies().quantileMillis(0.50),
                    result.latencies().quantileMillis(0.99), result.errors(), pageReadsSince(before)));
        }
    }

    /**
     * The app's newest home pages served so far by outcome (kept, patched, read), and its unread
     * answers by outcome and how their version was read (along with the rate limit's count, or apart),
     * warm-ups included.
     */
    private Map<String, Double> pageReads() {
        Map<String, Double> reads = new TreeMap<>();
        MeterRegistry meters = context.getBean(MeterRegistry.class);
        meters.find("tributary.api.page.cache.reads").counters()
                .forEach(counter -> reads.put("pages " + counter.getId().getTag("outcome"), counter.count()));
        meters.find("tributary.api.unread.cache.reads").counters().forEach(counter -> reads.put(
                "counts " + counter.getId().getTag("outcome") + " " + counter.getId().getTag("version"), counter.count()));
        return reads;
    }

    /** The newest home pages and unread answers served since {@code before}, by outcome; empty if none were. */
    private String pageReadsSince(Map<String, Double> before) {
        StringBuilder line = new StringBuilder();
        pageReads().forEach((outcome, count) -> {
            double served = count - before.getOrDefault(outcome, 0.0);
            if (served > 0) {
                line.append(line.isEmpty() ? "; served " : ", ").append(Bench.format("%s %,.0f", outcome, served));
            }
        });
        return line.toString();
    }

    private void measure(List<Endpoint> all, Loads loads, Map<String, Cell> cells, Map<String, Paced> pacedCells, JvmCounters jvm,
            int open, int people) {
        for (int round = 1; round <= rounds; round++) {
            for (int n : connections) {
                Map<String, Double> rates = new LinkedHashMap<>();
                for (int i = 0; i < all.size(); i++) {
                    // The order rotates each round, so no endpoint always follows the same one.
                    Endpoint endpoint = all.get((i + round - 1) % all.size());
                    topUp(endpoint, loads, n, people);
                    var window = jvm.window(warmup, measured);
                    Map<String, Double> before = pageReads();
                    LoadGenerator.Result result = loads.of(endpoint).run(endpoint.path(), endpoint.accept(), n, warmup,
                            measured, maxRequests);
                    JvmCounters.Window gc = window.join();
                    record(cells.get(Cell.key(endpoint.name(), n, open)), result, gc);
                    rates.put(endpoint.name(), result.rate());
                    print(open, round, n, endpoint.name(), result, gc, before);
                }
                if (paced && n == P99_CONNECTIONS && pacedAtOwnRate) {
                    measurePacedAtOwnRate(all, loads, pacedCells, rates, jvm, open, round, people);
                } else if (paced && n == P99_CONNECTIONS) {
                    measurePaced(all, loads, pacedCells, rates, jvm, open, round, people);
                }
            }
        }
    }

    /**
     * Each endpoint with a throughput target, then its baseline, paced at {@value #P99_CONNECTIONS}
     * connections to the target's share of the baseline's requests/s in this round ({@link Paced}).
     */
    private void measurePaced(List<Endpoint> all, Loads loads, Map<String, Paced> pacedCells, Map<String, Double> rates,
            JvmCounters jvm, int open, int round, int people) {
        for (Endpoint endpoint : all) {
            Double baseRate = rates.get(endpoint.comparedWith());
            if (Double.isNaN(endpoint.target()) || endpoint.baseline() || baseRate == null || !(baseRate > 0)) {
                continue;
            }
            Endpoint base = all.stream().filter(e -> e.name().equals(endpoint.comparedWith())).findFirst().orElseThrow();
            Paced cell = pacedCells.computeIfAbsent(endpoint.name() + "@" + open, k -> new Paced(endpoint, base, open));
            double perSecond = endpoint.target() * baseRate;
            cell.offered().add(true, perSecond);
            for (Endpoint target : List.of(endpoint, base)) {
                topUp(target, loads, P99_CONNECTIONS, people);
                var window = jvm.window(warmup, measured);
                Map<String, Double> before = pageReads();
                LoadGenerator.Result result = loads.of(target).runPaced(target.path(), target.accept(), P99_CONNECTIONS, perSecond,
                        warmup, measured, maxRequests);
                JvmCounters.Window gc = window.join();
                record(target == endpoint ? cell.subject() : cell.base(), result, gc);
                print(open, round, P99_CONNECTIONS, Bench.format("%s paced at %,.0f/s (%s's load)", target.name(), perSecond,
                        endpoint.name()), result, gc, before);
            }
        }
    }

    /**
     * Tails at equal load (issue 51): every app endpoint and the constant endpoint, each paced at
     * {@value #P99_CONNECTIONS} connections to {@code --paced-share} (half) of its own closed-loop
     * requests/s in this round, so each is equally far from its own saturation; a p99 is then
     * compared with the constant endpoint's at its own share.
     */
    private void measurePacedAtOwnRate(List<Endpoint> all, Loads loads, Map<String, Paced> pacedCells, Map<String, Double> rates,
            JvmCounters jvm, int open, int round, int people) {
        for (Endpoint endpoint : all) {
            Double own = rates.get(endpoint.name());
            if (endpoint.name().equals(FLOOR) || endpoint.name().equals(SMALL_BASELINE) || own == null || !(own > 0)) {
                continue;
            }
            Paced cell = pacedCells.computeIfAbsent(endpoint.name() + "@" + open, k -> new Paced(endpoint, endpoint, open));
            double perSecond = pacedShare * own;
            cell.offered().add(true, perSecond);
            topUp(endpoint, loads, P99_CONNECTIONS, people);
            var window = jvm.window(warmup, measured);
            Map<String, Double> before = pageReads();
            LoadGenerator.Result result = loads.of(endpoint).runPaced(endpoint.path(), endpoint.accept(), P99_CONNECTIONS,
                    perSecond, warmup, measured, maxRequests);
            JvmCounters.Window gc = window.join();
            record(cell.subject(), result, gc);
            print(open, round, P99_CONNECTIONS, Bench.format("%s paced at %,.0f/s (%.0f %% of its own)", endpoint.name(), perSecond,
                    pacedShare * 100), result, gc, before);
        }
    }

    /** The tails at equal load: each endpoint's p99 at its share of its own rate against the constant endpoint's. */
    private long reportTails(Map<String, Paced> pacedCells) {
        System.out.println();
        System.out.println(Bench.format("tails at equal load: each endpoint paced at %.0f %% of its own closed-loop req/s at %d "
                + "connections (latency from each request's due time); target p99 <= %.0fx the constant endpoint's p99 at its own "
                + "%.0f %%", pacedShare * 100, P99_CONNECTIONS, TAIL_RATIO_TARGET, pacedShare * 100));
        System.out.println(Bench.format("%-12s %7s %10s %10s %9s %9s %9s %8s %10s %8s", "paced", "streams", "offered/s", "served/s",
                "p50 ms", "p99 ms", "p999 ms", "errors", "p99 ratio", "verdict"));
        long errors = 0;
        for (Paced cell : pacedCells.values()) {
            Paced constant = pacedCells.get(BASELINE + "@" + cell.streams());
            double ratio = constant == null ? Double.NaN : cell.subject().p99().median() / constant.subject().p99().median();
            errors += cell.subject().errors();
            boolean kept = cell.subject().rate().median() >= 0.98 * cell.offered().median();
            System.out.println(Bench.format("%-12s %7d %10.0f %10.0f %9.2f %9.2f %9.2f %8d %10s %8s", cell.endpoint().name(),
                    cell.streams(), cell.offered().median(), cell.subject().rate().median(), cell.subject().p50().median(),
                    cell.subject().p99().median(), cell.subject().p999().median(), cell.subject().errors(),
                    cell.endpoint().name().equals(BASELINE) ? "(base)" : Bench.format("%.2f", ratio),
                    cell.endpoint().name().equals(BASELINE) ? "" : !kept ? "NOT KEPT UP" : ratio <= TAIL_RATIO_TARGET ? "met" : "NOT MET"));
        }
        System.out.println("(served/s below 98 % of offered/s: the server fell behind the pace; the p99 then includes the queue)");
        return errors;
    }

    /**
     * Before an app endpoint's cell ({@code --top-up}), every person read once, closed loop at the
     * cell's connections, and printed as such. A kept page or count lapses by the clock (7.5–10
     * minutes a person), but nobody polls an endpoint between its cells, so what lapsed since its
     * last cell came due together at the start of the next: on this 2-core machine 1,000–1,900 fresh
     * page reads in a 12 s cell of ~20,000, nine times their share under steady polling, and more
     * the slower the machine. After the top-up a cell meets the lapses of its own time only.
     */
    private void topUp(Endpoint endpoint, Loads loads, int connections, int people) {
        if (!topUp || endpoint.baseline()) {
            return;
        }
        Map<String, Double> before = pageReads();
        LoadGenerator.Result result = loads.of(endpoint).run(endpoint.path(), endpoint.accept(), connections, Duration.ZERO,
                Duration.ofMinutes(5), people);
        System.out.println(Bench.format("    top-up %-10s each of %,d people once: %,d 2xx in %.1f s, errors %,d%s%s", endpoint.name(),
                people, result.requests(), result.seconds(), result.errors(),
                describe(result.failedStatuses(), result.ioErrors()), pageReadsSince(before)));
    }

    private void print(int open, int round, int n, String name, LoadGenerator.Result result, JvmCounters.Window gc,
            Map<String, Double> before) {
        System.out.println(Bench.format("  streams %,6d round %d %5d conns  %-10s %,9d 2xx in %5.2f s = %,8.0f "
                + "req/s, p50 %7.2f ms, p99 %7.2f ms, p999 %7.2f ms, errors %,d%s, reconnects %,d, body %,.0f "
                + "bytes, GC %d pauses (max %.1f ms), alloc %,.0f MB/s%s%s", open, round, n, name,
                result.requests(), result.seconds(), result.rate(), result.latencies().quantileMillis(0.50),
                result.latencies().quantileMillis(0.99), result.latencies().quantileMillis(0.999),
                result.errors(), describe(result.failedStatuses(), result.ioErrors()), result.reconnects(),
                result.averageBodyBytes(), gc.pauses(), gc.maxPauseMillis(), gc.allocationMegabytesPerSecond(),
                result.capped() ? " (request cap reached)" : "", pageReadsSince(before)));
    }

    private static void record(Cell cell, LoadGenerator.Result result, JvmCounters.Window gc) {
        if (result.requests() > 0) {
            double server = 0;
            for (String program : CPU_PARTS.subList(0, 3)) {
                double perRequest = gc.cpuMillis(program) / result.requests();
                server += perRequest;
                cell.cpu().get(program).add(true, perRequest);
            }
            cell.cpu().get("server").add(true, server);
            cell.bodyBytes().add(true, result.averageBodyBytes());
        }
        cell.rate().add(true, result.rate());
        cell.p50().add(true, result.latencies().quantileMillis(0.50));
        cell.p99().add(true, result.latencies().quantileMillis(0.99));
        cell.p999().add(true, result.latencies().quantileMillis(0.999));
        cell.pauses().add(true, gc.pauses());
        cell.maxPause().add(true, gc.maxPauseMillis());
        cell.allocation().add(true, gc.allocationMegabytesPerSecond());
        result.failedStatuses().forEach((status, n) -> cell.failed().merge(status, n, Long::sum));
        cell.ioErrors()[0] += result.ioErrors();
    }

    /** Prints the table, the targets and the last line; returns the errors. */
    private long report(Map<String, Cell> cells, Map<String, Paced> pacedCells, List<OpenStreams.Opened> opened) {
        System.out.println();
        System.out.println(Bench.format("%-10s %7s %6s %10s %10s %10s %9s %9s %9s %8s %8s %9s %9s %10s", "endpoint", "streams",
                "conns", "median/s", "min/s", "max/s", "p50 ms", "p99 ms", "p999 ms", "errors", "GC n", "GC max", "alloc/s",
                "vs base"));
        long errors = 0;
        Cell weakest = null;
        for (Cell cell : cells.values()) {
            double ratio = ratio(cells, cell);
            errors += cell.errors();
            System.out.println(Bench.format("%-10s %7d %6d %10.0f %10.0f %10.0f %9.2f %9.2f %9.2f %8d %8.0f %7.1fms %6.0fMB %10s",
                    cell.endpoint().name(), cell.streams(), cell.connections(), cell.rate().median(), cell.rate().min(),
                    cell.rate().max(), cell.p50().median(), cell.p99().median(), cell.p999().median(), cell.errors(),
                    cell.pauses().median(), cell.maxPause().median(), cell.allocation().median(),
                    cell.endpoint().baseline() ? floorRatio(cells, cell) : Bench.format("%.2f", ratio)));
            boolean counts = !cell.endpoint().baseline() && (headline.isEmpty()
                    ? !Double.isNaN(cell.endpoint().target()) || endpoints.stream().allMatch(e -> Double.isNaN(e.target()))
                    : headline.equals(cell.endpoint().name()));
            if (counts && (weakest == null || ratio < ratio(cells, weakest))) {
                weakest = cell;
            }
        }
        System.out.println(Bench.format("(medians over %d rounds of each round's figure; vs base = median req/s over the "
                + "baseline's median req/s at the same connections and streams; for the baseline, its share of bare Netty's; "
                + "GC n and max = stop-the-world pauses in the measured window and the longest; alloc/s = bytes allocated "
                + "by the whole JVM, load generator included, per second)", rounds));
        errors += pacedAtOwnRate ? reportTails(pacedCells) : reportPaced(pacedCells);
        reportCpu(cells);

        System.out.println();
        System.out.println("targets:");
        for (Cell cell : cells.values()) {
            if (!Double.isNaN(cell.endpoint().target())) {
                double ratio = ratio(cells, cell);
                System.out.println(Bench.format("  %-8s at %4d connections, %,6d streams: %.2f of the baseline's req/s, "
                        + "target >= %.2f: %s", cell.endpoint().name(), cell.connections(), cell.streams(), ratio,
                        cell.endpoint().target(), verdict(ratio >= cell.endpoint().target(), cell)));
            }
        }
        for (Paced cell : pacedAtOwnRate ? List.<Paced>of() : pacedCells.values()) {
            double p99 = cell.subject().p99().median();
            System.out.println(Bench.format("  %-8s at %4d connections, %,6d streams, paced at %,.0f req/s (its throughput "
                    + "target): p99 %.2f ms, target < %.0f ms: %s", cell.endpoint().name(), P99_CONNECTIONS, cell.streams(),
                    cell.offered().median(), p99, P99_TARGET_MILLIS, verdict(p99 < P99_TARGET_MILLIS
                            && cell.subject().rate().median() >= 0.98 * cell.offered().median(), cell.subject())));
        }
        for (Cell cell : cells.values()) {
            if (!cell.endpoint().baseline() && cell.connections() == P99_CONNECTIONS) {
                System.out.println(Bench.format("  %-8s at %4d connections, %,6d streams: p99 %.2f ms closed loop at saturation "
                        + "(info: %d connections / %,.0f req/s = %.1f ms mean by Little's law)", cell.endpoint().name(),
                        cell.connections(), cell.streams(), cell.p99().median(), cell.connections(), cell.rate().median(),
                        cell.connections() * 1000 / cell.rate().median()));
            }
        }
        for (OpenStreams.Opened streams : opened) {
            System.out.println(Bench.format("  memory per open stream (%,d open): %,.0f bytes of live heap, target <= %,.0f: %s",
                    streams.open(), streams.heapBytesPerStream(), STREAM_BYTES_TARGET,
                    streams.failed() > 0 ? "NOT MET (" + streams.failed() + " refused)"
                            : streams.heapBytesPerStream() <= STREAM_BYTES_TARGET ? "met" : "NOT MET"));
        }
        if (errors == 0) {
            System.out.println("  errors: none (every measured response was 2xx)");
        } else {
            System.out.println("  ERRORS: " + errors + " measured responses were not 2xx or failed:");
            cells.values().stream().filter(c -> c.errors() > 0).forEach(c -> System.out.println(Bench.format(
                    "    %-8s at %4d connections, %,6d streams:%s", c.endpoint().name(), c.connections(), c.streams(),
                    describe(c.failed(), c.ioErrors()[0]))));
        }
        if (weakest != null) {
            Cell base = cells.get(Cell.key(weakest.endpoint().comparedWith(), weakest.connections(), weakest.streams()));
            System.out.println(Bench.format("(last line: %s at %d connections with %,d streams, %s)", weakest.endpoint().name(),
                    weakest.connections(), weakest.streams(), headline.isEmpty() ? "the weakest ratio to the baseline"
                            : "against " + weakest.endpoint().comparedWith()));
            System.out.println(Bench.format("%s: %.0f req/s vs baseline %.0f req/s = %.2f", label, weakest.rate().median(),
                    base.rate().median(), ratio(cells, weakest)));
        }
        return errors;
    }

    /**
     * CPU per request of the server's processes in each closed-loop cell (medians of the rounds),
     * and the figures the capacity model reads: bench/results/http.properties, from the cells at
     * {@value #P99_CONNECTIONS} connections with no open streams.
     */
    private void reportCpu(Map<String, Cell> cells) {
        System.out.println();
        System.out.println(Bench.format("CPU ms per request (user + system from /proc over each measured window; app = this JVM%s; "
                + "medians of the rounds):", inProcess ? ", the load generator included (--generator=process leaves it out)" : ""));
        System.out.println(Bench.format("%-12s %7s %6s %9s %9s %9s %9s %11s", "endpoint", "streams", "conns", "app", "mariadb",
                "redis", "server", "body bytes"));
        BenchResults results = new BenchResults(label);
        results.put("generator", inProcess ? "jvm" : "process");
        for (Cell cell : cells.values()) {
            if (cell.endpoint().name().equals(FLOOR)) {
                continue;
            }
            System.out.println(Bench.format("%-12s %7d %6d %9.3f %9.3f %9.3f %9.3f %,11.0f", cell.endpoint().name(), cell.streams(),
                    cell.connections(), cell.cpu().get("app").median(), cell.cpu().get("mariadb").median(),
                    cell.cpu().get("redis").median(), cell.cpu().get("server").median(), cell.bodyBytes().median()));
            if (cell.connections() == P99_CONNECTIONS && cell.streams() == 0) {
                String name = cell.endpoint().name();
                cell.cpu().forEach((program, series) -> results.put(name + ".cpu_ms_per_request." + program, series.median()));
                results.put(name + ".body_bytes", cell.bodyBytes().median());
                results.put(name + ".requests_per_second", cell.rate().median());
            }
        }
        results.write();
    }

    /** Prints the paced cells' table; returns their errors. */
    private long reportPaced(Map<String, Paced> pacedCells) {
        if (pacedCells.isEmpty()) {
            return 0;
        }
        System.out.println();
        System.out.println(Bench.format("%-10s %7s %10s %10s %9s %9s %9s %8s   %-10s %10s %9s %9s %9s %8s", "paced", "streams",
                "offered/s", "served/s", "p50 ms", "p99 ms", "p999 ms", "errors", "baseline", "served/s", "p50 ms", "p99 ms",
                "p999 ms", "errors"));
        long errors = 0;
        for (Paced cell : pacedCells.values()) {
            Cell subject = cell.subject();
            Cell base = cell.base();
            errors += subject.errors() + base.errors();
            System.out.println(Bench.format("%-10s %7d %10.0f %10.0f %9.2f %9.2f %9.2f %8d   %-10s %10.0f %9.2f %9.2f %9.2f %8d",
                    cell.endpoint().name(), cell.streams(), cell.offered().median(), subject.rate().median(),
                    subject.p50().median(), subject.p99().median(), subject.p999().median(), subject.errors(),
                    base.endpoint().name(), base.rate().median(), base.p50().median(), base.p99().median(),
                    base.p999().median(), base.errors()));
        }
        System.out.println(Bench.format("(paced at %d connections: each endpoint with a throughput target, then its baseline, sent "
                + "the requests/s that target asks of it, its share of the baseline's closed-loop req/s in the same round, "
                + "spread evenly over the connections; latencies from each request's due time, so a late answer also delays "
                + "what its connection sends next and counts that wait; medians over the rounds)", P99_CONNECTIONS));
        return errors;
    }

    /** The baseline's share of bare Netty's req/s in the same cell, if Netty ran. */
    private static String floorRatio(Map<String, Cell> cells, Cell cell) {
        Cell netty = cells.get(Cell.key(FLOOR, cell.connections(), cell.streams()));
        if (netty == null || cell.endpoint().name().equals(FLOOR) || !cell.endpoint().name().equals(BASELINE)) {
            return "";
        }
        return Bench.format("%.2f N", cell.rate().median() / netty.rate().median());
    }

    /** A target counts as met only if the endpoint answered every measured request with a 2xx. */
    private static String verdict(boolean reached, Cell cell) {
        if (cell.errors() > 0) {
            return "NOT MET (errors)";
        }
        return reached ? "met" : "NOT MET";
    }

    private static double ratio(Map<String, Cell> cells, Cell cell) {
        return cell.rate().median() / cells.get(Cell.key(cell.endpoint().comparedWith(), cell.connections(), cell.streams()))
                .rate().median();
    }

    private static String describe(Map<Integer, Long> failed, long ioErrors) {
        if (failed.isEmpty() && ioErrors == 0) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        failed.forEach((status, n) -> parts.add(n + " x " + status));
        if (ioErrors > 0) {
            parts.add(ioErrors + " x I/O error");
        }
        return " (" + String.join(", ", parts) + ")";
    }

    // ---------------------------------------------------------------- endpoints and the baseline's body

    private static List<Endpoint> endpoints(String spec) {
        List<Endpoint> list = new ArrayList<>();
        for (String entry : spec.split(",")) {
            String name = entry.strip();
            if (name.isEmpty()) {
                continue;
            }
            int equals = name.indexOf('=');
            if (equals > 0) {
                String path = name.substring(equals + 1);
                String known = name.substring(0, equals);
                double target = KNOWN.containsKey(known) ? KNOWN.get(known).target() : Double.NaN;
                list.add(KNOWN.containsKey(known)
                        ? new Endpoint(known, path, target, KNOWN.get(known).comparedWith(), KNOWN.get(known).viaSession(),
                                KNOWN.get(known).accept())
                        : new Endpoint(known, path, target, BASELINE));
            } else if (KNOWN.containsKey(name)) {
                list.add(KNOWN.get(name));
            } else {
                throw new IllegalArgumentException("unknown endpoint " + name + "; known: " + KNOWN.keySet()
                        + ", or name=/path");
            }
        }
        if (list.isEmpty() || list.stream().anyMatch(e -> e.name().startsWith(BASELINE) || !e.path().startsWith("/"))) {
            throw new IllegalArgumentException("--endpoints needs at least one endpoint, paths starting with /, "
                    + "and no name 'baseline': " + spec);
        }
        for (Endpoint endpoint : list) {
            boolean comparable = endpoint.comparedWith().startsWith(BASELINE)
                    || list.stream().anyMatch(other -> other.name().equals(endpoint.comparedWith()));
            if (!comparable) {
                throw new IllegalArgumentException(endpoint.name() + " is compared with " + endpoint.comparedWith()
                        + ", so --endpoints must include it too: " + spec);
            }
        }
        return list;
    }

    /**
     * The JSON of a 50-item home-timeline page: the endpoint's own answer if it exists, else the
     * same page made in-process from the same views ({@link ItemViews}) and JSON mapper.
     */
    private byte[] timelinePage(int port, String token, long person) {
        HttpResponse<byte[]> response = get(port, token, KNOWN.get("home").path());
        if (response.statusCode() == 200) {
            System.out.println(Bench.format("baseline body: a home-timeline page as the endpoint returns it, %,d bytes",
                    response.body().length));
            return response.body();
        }
        var page = context.getBean(HomeFeed.class).page(person, TimelineQuery.newest(PAGE));
        byte[] json = context.getBean(JsonMapper.class).writeValueAsBytes(context.getBean(ItemViews.class).ofTimeline(person, page));
        System.out.println(Bench.format("baseline body: a %d-item home-timeline page made in-process (the endpoint "
                + "answered %d), %,d bytes", page.size(), response.statusCode(), json.length));
        return json;
    }

    /** The unread answer of the first person, the small baseline's body (about 100–300 bytes). */
    private static byte[] unreadAnswer(int port, String token) {
        HttpResponse<byte[]> response = get(port, token, KNOWN.get("unread").path());
        byte[] body = response.statusCode() == 200 ? response.body()
                : "{\"total\":160,\"by_source\":{\"1\":160},\"by_media\":{\"text\":160}}".getBytes(StandardCharsets.UTF_8);
        System.out.println(Bench.format("small baseline body: %s, %,d bytes",
                response.statusCode() == 200 ? "the unread answer" : "an unread-shaped constant", body.length));
        return body;
    }

    private String probe(int port, String credential, Endpoint endpoint) {
        HttpResponse<byte[]> response = get(port, credential, endpoint.path(), endpoint.accept());
        String shape = "";
        if (response.statusCode() / 100 == 2 && endpoint.accept().contains("json")) {
            JsonNode json = context.getBean(JsonMapper.class).readTree(response.body());
            shape = json.isArray() ? Bench.format(", %d elements", json.size()) : "";
        }
        return Bench.format("probe %-8s GET %s: %d, %,d bytes%s%s", endpoint.name(), endpoint.path(), response.statusCode(),
                response.body().length, shape, response.statusCode() / 100 == 2 ? "" : "  <-- not 2xx: its cells will count errors");
    }

    private static HttpResponse<byte[]> get(int port, String token, String path) {
        return get(port, "Authorization: Bearer " + token, path, "application/json");
    }

    /** A GET with one credential header line ({@code Authorization: ...} or {@code Cookie: ...}). */
    private static HttpResponse<byte[]> get(int port, String credential, String path, String accept) {
        int colon = credential.indexOf(':');
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .header(credential.substring(0, colon), credential.substring(colon + 1).strip()).header("Accept", accept)
                    .timeout(Duration.ofSeconds(30)).build();
            return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
