package dev.tributary.api.bench;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.Prosody;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.bench.Bench;
import dev.tributary.pubsub.bench.Bench.Args;
import dev.tributary.pubsub.bench.ProcessCpu;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Push latency: the time from a post's publish ({@code POST /api/v1/posts}) to its receipt by
 * each of {@code subscribers} subscribers of the author, over the live stream (SSE, the
 * baseline: fan-out into each inbox, then the stream's event) and at a WebSub callback (the hub:
 * the author's Atom export pushed to each callback), in one run against one app on this machine;
 * p50 and p99 over every subscriber of every measured round. The callbacks sit on {@code hosts}
 * loopback addresses, so the hub's per-callback-host limit applies as for that many hosts.
 * Target (issue 50): the WebSub p99 at most twice the SSE p99. With Debian's {@code prosody}
 * installed, XMPP too: the app pushes to a Prosody of the benchmark's own, and
 * {@code xmpp-subscribers} Smack sessions (in a JVM of their own, {@link XmppReceivers}) subscribed
 * to the author's public node time the event notification.
 *
 * <p>Options: {@code --subscribers=1000}, {@code --rounds=5} (after one warm-up round),
 * {@code --hosts=100}, {@code --xmpp-subscribers=100} (0: no XMPP), and any {@code --tributary.…} setting (e.g. {@code --tributary.hub.per-host-concurrency=32}).
 */
public final class PushBenchmark {

    private static final long RECEIPT_LIMIT_SECONDS = 120;

    private PushBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Args options = new Args(args);
        List<String> settings = new ArrayList<>(List.of(
                "spring.main.web-application-type=servlet", "server.address=127.0.0.1", "server.port=0",
                "tributary.crawler.allow-private=127.0.0.0/8", "tributary.crawler.concurrency=0",
                "tributary.api.rate-limit.enabled=false", "tributary.api.stream.per-address=100000",
                "tributary.hub.max-per-callback-host=100000",
                "logging.level.org.springframework.boot.thymeleaf=error", "logging.level.org.springdoc=error"));
        Prosody prosody = options.integer("xmpp-subscribers", 100) > 0 ? prosody() : null;
        if (prosody != null) {
            settings.addAll(List.of("tributary.xmpp.server=127.0.0.1", "tributary.xmpp.port=" + prosody.port(),
                    "tributary.xmpp.domain=" + Prosody.DOMAIN, "tributary.xmpp.address=" + Prosody.APP_USER + "@" + Prosody.DOMAIN,
                    "tributary.xmpp.secret=" + Prosody.APP_SECRET, "tributary.xmpp.pubsub-service=" + Prosody.PUBSUB,
                    "tributary.xmpp.require-tls=false"));
        }
        try (ConfigurableApplicationContext context = Bench.start(TributaryApplication.class, options,
                settings.toArray(String[]::new))) {
            run(context, options, prosody);
        } finally {
            if (prosody != null) {
                prosody.close();
            }
        }
        System.exit(0);
    }

    private static @Nullable Prosody prosody() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, "prosody"))) {
                return Prosody.start();
            }
        }
        System.out.println("no prosody on the PATH (apt-get install prosody): XMPP not measured");
        return null;
    }

    private static void run(ConfigurableApplicationContext context, Args options, @Nullable Prosody prosody) throws Exception {
        int subscribers = options.integer("subscribers", 1000);
        int rounds = options.integer("rounds", 5);
        int hosts = options.integer("hosts", 100);
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        ApiClient api = new ApiClient(port);
        JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));

        HttpSeed.People people = new HttpSeed(context).seed(subscribers, 20, 10);
        TestUser author = api.newUser("pushes");
        post(api, author, "The author's first post");
        long source = context.getBean(Sources.class).ofUser(author.numericId()).id();
        Subscriptions follows = context.getBean(Subscriptions.class);
        for (long person : people.ids()) {
            follows.subscribe(person, source, null);
        }

        long started = System.nanoTime();
        List<PushReceipts> channels = new ArrayList<>();
        channels.add(SseReceipts.open(port, people.tokens()));
        String topic = "http://127.0.0.1:" + port + "/feeds/users/" + author.username() + ".atom";
        channels.add(WebSubReceipts.subscribe(port, topic, subscribers, hosts));
        if (prosody != null) {
            channels.add(XmppReceipts.subscribe(prosody, "tributary/people/" + author.id(),
                    options.integer("xmpp-subscribers", Math.min(subscribers, 100))));
        }
        awaitHubSubscriptions(jdbc, "user:" + author.numericId() + ":atom", subscribers);
        System.out.println(Bench.format("set-up: %,d followers of one author, %,d live streams open, %,d WebSub subscriptions "
                + "verified (callbacks on %d hosts) in %.1f s; %s", subscribers, subscribers, subscribers, hosts,
                (System.nanoTime() - started) / 1e9, channels.size() > 2 ? "XMPP: " + channels.getLast().subscribers() + " sessions subscribed to the author's node"
                        : "XMPP not measured"));

        Map<String, List<Long>> latencies = new LinkedHashMap<>();
        channels.forEach(channel -> latencies.put(channel.name(), new ArrayList<>()));
        Map<String, Double> cpuBefore = Map.of();
        for (int round = 0; round <= rounds; round++) {
            boolean measured = round > 0;
            if (round == 1) {
                cpuBefore = ProcessCpu.snapshot();
            }
            String marker = "push-bench-" + round + "-" + System.nanoTime();
            channels.forEach(channel -> channel.expect(marker));
            long publishedAt = System.nanoTime();
            post(api, author, "Round " + round + ": " + marker);
            StringBuilder line = new StringBuilder(Bench.format("round %d:", round));
            for (PushReceipts channel : channels) {
                long[] got = channel.await(publishedAt, RECEIPT_LIMIT_SECONDS);
                if (measured) {
                    for (long nanos : got) {
                        latencies.get(channel.name()).add(nanos);
                    }
                }
                line.append(Bench.format(" %s %d/%d p50 %.0f ms p99 %.0f ms;", channel.name(), got.length, channel.subscribers(),
                        Bench.quantileMillis(got, got.length, 0.5), Bench.quantileMillis(got, got.length, 0.99)));
            }
            System.out.println(line + (measured ? "" : " (warm-up, not counted)"));
        }

        Map<String, Double> spent = ProcessCpu.spent(cpuBefore, ProcessCpu.snapshot());
        System.out.println("CPU ms per post over the measured rounds, by process (app: this JVM, the server with the SSE "
                + "readers and WebSub callbacks; java: the XMPP readers' JVM): " + spent.entrySet().stream()
                .filter(e -> !ProcessCpu.APART.contains(e.getKey()))
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .map(e -> Bench.format("%s %.0f", e.getKey(), e.getValue() / rounds)).collect(Collectors.joining(", ")));
        System.out.println();
        System.out.println(Bench.format("%-8s %10s %10s %10s %10s", "channel", "received", "p50 ms", "p99 ms", "max ms"));
        Map<String, double[]> figures = new LinkedHashMap<>();
        for (PushReceipts channel : channels) {
            long[] all = latencies.get(channel.name()).stream().mapToLong(Long::longValue).toArray();
            double p50 = Bench.quantileMillis(all, all.length, 0.5);
            double p99 = Bench.quantileMillis(all, all.length, 0.99);
            figures.put(channel.name(), new double[] {p50, p99});
            System.out.println(Bench.format("%-8s %5d/%-5d %9.0f %10.0f %10.0f", channel.name(), all.length,
                    channel.subscribers() * rounds, p50, p99, Bench.quantileMillis(all, all.length, 1.0)));
        }
        channels.forEach(PushReceipts::close);
        double websub = figures.get("websub")[1];
        double sse = figures.get("sse")[1];
        System.out.println(Bench.format("target: WebSub p99 <= 2x SSE p99: %s", websub <= 2 * sse ? "met" : "NOT MET"));
        System.out.println(Bench.format("push: %.0f ms vs baseline %.0f ms = %.2f", websub, sse, websub / sse));
        if (figures.containsKey("xmpp")) {
            double xmpp = figures.get("xmpp")[1];
            System.out.println(Bench.format("target: XMPP p99 <= 2x SSE p99: %s (%.0f ms vs %.0f ms = %.2f)",
                    xmpp <= 2 * sse ? "met" : "NOT MET", xmpp, sse, xmpp / sse));
        }
    }

    private static void awaitHubSubscriptions(JdbcTemplate jdbc, String topicKey, int expected) {
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (true) {
            Integer verified = jdbc.queryForObject("SELECT COUNT(*) FROM websub_hub_subscriptions WHERE topic_key = ?",
                    Integer.class, topicKey);
            if (verified != null && verified >= expected) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + verified + " of " + expected + " WebSub subscriptions verified in 300 s");
            }
            Bench.park(100);
        }
    }

    private static void post(ApiClient api, TestUser author, String text) {
        ApiResponse posted = api.post("/api/v1/posts", author.token(), Map.of("text", text));
        if (posted.status() != 201) {
            throw new IllegalStateException("the post was refused: " + posted);
        }
    }
}
