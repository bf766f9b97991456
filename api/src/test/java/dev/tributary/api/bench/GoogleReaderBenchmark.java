package dev.tributary.api.bench;

import dev.tributary.TributaryApplication;
import dev.tributary.pubsub.bench.Bench;
import dev.tributary.pubsub.bench.Bench.Args;
import dev.tributary.pubsub.bench.Bench.Series;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The Google Reader API's two sync calls under load against the same server's home timeline, on
 * the same data in one run: {@code stream/items/ids} of the whole unread horizon
 * ({@code xt=…/read}, {@code n=1000}; inboxes of 1,250 entries, four in five unread) and
 * {@code stream/items/contents} of 50 of the caller's own unread items, each signed in through
 * {@code /accounts/ClientLogin}, vs {@code /api/v1/timelines/home?limit=50} with bearer tokens.
 * Target: each at least 0.8 of the home timeline's requests/s.
 *
 * <p>Options: {@code --users=2000}, {@code --items=5000}, {@code --inbox=1250},
 * {@code --connections=64}, {@code --rounds=3}, {@code --seconds=10}, {@code --warmup=3}.
 * {@code --mode=sync} (or {@code ./bench/run greader-sync}) measures one app's first full sync of
 * 10,000 unread instead: {@link GoogleReaderSync}.
 */
public final class GoogleReaderBenchmark {

    private static final double TARGET = 0.8;
    private static final String READING_LIST = "user/-/state/com.google/reading-list";
    private static final String READ = "user/-/state/com.google/read";

    private GoogleReaderBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Args options = new Args(args);
        long errors;
        try (ConfigurableApplicationContext context = Bench.start(TributaryApplication.class, options,
                "spring.main.web-application-type=servlet", "server.address=127.0.0.1", "server.port=0",
                "tributary.bench.constant-endpoint=true", "tributary.crawler.concurrency=0",
                "tributary.fanout.workers=0", "tributary.api.rate-limit.enabled=false",
                "logging.level.org.springframework.boot.thymeleaf=error", "logging.level.org.springdoc=error")) {
            errors = "sync".equals(options.text("mode", "load")) ? GoogleReaderSync.run(context, options) : run(context, options);
        }
        if (errors > 0) {
            System.exit(1);
        }
    }

    private static long run(ConfigurableApplicationContext context, Args options) throws Exception {
        int users = options.integer("users", 2000);
        HttpSeed.People people = new HttpSeed(context).seed(users, options.integer("items", 5000), options.integer("inbox", 1250));
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        InetSocketAddress server = new InetSocketAddress("127.0.0.1", port);
        JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));

        List<String> logins = new ArrayList<>(users);
        List<String> contentPaths = new ArrayList<>(users);
        HttpClient http = HttpClient.newHttpClient();
        long unread = 0;
        for (int i = 0; i < users; i++) {
            logins.add("Authorization: GoogleLogin auth=" + clientLogin(http, port, Bench.format("bench_%06d", i),
                    people.tokens().get(i)));
            List<Long> newest = jdbc.queryForList("SELECT item_id FROM inbox WHERE user_id = ? AND is_read = FALSE "
                    + "ORDER BY item_id DESC LIMIT 50", Long.class, people.ids()[i]);
            contentPaths.add("/reader/api/0/stream/items/contents?"
                    + newest.stream().map(id -> "i=" + id).collect(Collectors.joining("&")));
            if (i == 0) {
                unread = jdbc.queryForObject("SELECT COUNT(*) FROM inbox WHERE user_id = ? AND is_read = FALSE", Long.class,
                        people.ids()[i]);
            }
        }
        String idsPath = "/reader/api/0/stream/items/ids?s=" + enc(READING_LIST) + "&xt=" + enc(READ) + "&n=1000";
        System.out.println(Bench.format("set-up: %,d Google Reader sign-ins; the first person has %,d unread entries "
                + "(stream/items/ids answers the newest 1,000)", users, unread));

        Map<String, LoadGenerator> generators = new LinkedHashMap<>();
        Map<String, String> paths = new LinkedHashMap<>();
        generators.put("home", LoadGenerator.bearer(server, people.tokens()));
        paths.put("home", "/api/v1/timelines/home?limit=50");
        generators.put("ids", new LoadGenerator(server, logins));
        paths.put("ids", idsPath);
        generators.put("contents", new LoadGenerator(server, logins, contentPaths));
        paths.put("contents", "(50 of the caller's unread ids)");

        int connections = options.integer("connections", 64);
        int rounds = options.integer("rounds", 3);
        Duration measured = options.seconds("seconds", 10);
        Duration warmup = options.seconds("warmup", 3);
        Map<String, Series> rates = new LinkedHashMap<>();
        Map<String, Series> p99s = new LinkedHashMap<>();
        Map<String, Long> failures = new LinkedHashMap<>();
        generators.keySet().forEach(name -> {
            rates.put(name, new Series(name));
            p99s.put(name, new Series(name + " p99"));
            failures.put(name, 0L);
        });
        List<String> names = List.copyOf(generators.keySet());
        for (String name : names) {
            generators.get(name).run(paths.get(name), connections, Duration.ofSeconds(5), Duration.ZERO, 1_000_000);
        }
        for (int round = 1; round <= rounds; round++) {
            for (int i = 0; i < names.size(); i++) {
                String name = names.get((i + round - 1) % names.size());
                LoadGenerator.Result result = generators.get(name).run(paths.get(name), connections, warmup, measured, 5_000_000);
                rates.get(name).add(true, result.rate());
                p99s.get(name).add(true, result.latencies().quantileMillis(0.99));
                failures.merge(name, result.errors(), Long::sum);
                System.out.println(Bench.format("round %d %-9s %,8d requests in %.1f s = %,8.0f req/s, p99 %.1f ms, "
                        + "%,.0f bytes a response, %d errors", round, name, result.requests(), result.seconds(),
                        result.rate(), result.latencies().quantileMillis(0.99), result.averageBodyBytes(), result.errors()));
            }
        }
        return report(rates, p99s, failures, connections, rounds, paths);
    }

    private static long report(Map<String, Series> rates, Map<String, Series> p99s, Map<String, Long> failures,
            int connections, int rounds, Map<String, String> paths) {
        double home = rates.get("home").median();
        System.out.println();
        System.out.println(Bench.format("%-9s %10s %10s %10s %9s %8s %8s  %s", "endpoint", "median/s", "min/s", "max/s",
                "p99 ms", "errors", "vs home", "path"));
        String weakest = null;
        for (String name : rates.keySet()) {
            double ratio = rates.get(name).median() / home;
            System.out.println(Bench.format("%-9s %10.0f %10.0f %10.0f %9.2f %8d %8.2f  %s", name, rates.get(name).median(),
                    rates.get(name).min(), rates.get(name).max(), p99s.get(name).median(), failures.get(name), ratio,
                    paths.get(name)));
            if (!name.equals("home") && (weakest == null || ratio < rates.get(weakest).median() / home)) {
                weakest = name;
            }
        }
        System.out.println(Bench.format("(medians over %d rounds at %d connections; vs home = median req/s over the home "
                + "timeline's median req/s)", rounds, connections));
        long errors = failures.values().stream().mapToLong(Long::longValue).sum();
        for (String name : List.of("ids", "contents")) {
            double ratio = rates.get(name).median() / home;
            System.out.println(Bench.format("target: %-8s >= %.2f of home: %.2f %s", name, TARGET, ratio,
                    failures.get(name) > 0 ? "NOT MET (errors)" : ratio >= TARGET ? "met" : "NOT MET"));
        }
        System.out.println(Bench.format("(last line: %s, the weaker of the two)", weakest));
        System.out.println(Bench.format("greader: %.0f req/s vs baseline %.0f req/s = %.2f", rates.get(weakest).median(), home,
                rates.get(weakest).median() / home));
        return errors;
    }

    static String clientLogin(HttpClient http, int port, String username, String token)
            throws IOException, InterruptedException {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/accounts/ClientLogin")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Email=" + username + "&Passwd=" + enc(token))).build(),
                HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("ClientLogin of " + username + ": " + answer.statusCode() + " " + answer.body());
        }
        return answer.body().lines().filter(line -> line.startsWith("Auth=")).findFirst().orElseThrow().substring(5);
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
