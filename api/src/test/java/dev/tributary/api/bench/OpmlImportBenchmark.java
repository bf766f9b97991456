package dev.tributary.api.bench;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServer;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.bench.Bench;
import dev.tributary.pubsub.bench.Bench.Args;
import dev.tributary.pubsub.bench.Bench.Series;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code POST /api/v1/subscriptions/import} of an OPML document of 200 new feeds, all on one
 * local host (a feed server on the loopback address answering at once), against two baselines
 * measured in the same run: the same 200 subscriptions made directly through pub/sub
 * ({@code Subscriptions.subscribe} of an already registered source, 200 times: the storage work
 * any import must do), and 200 bare HTTP round trips to {@code GET /api/v1/me}. Each round imports
 * feeds the server has never seen, into a new account. Target: the import under 1 s (median).
 *
 * <p>Options: {@code --outlines=200}, {@code --rounds=3}, and any {@code --tributary.…} setting
 * (e.g. {@code --tributary.api.opml.check-budget=20s} for the old budget).
 */
public final class OpmlImportBenchmark {

    private static final double TARGET_MILLIS = 1000;

    private OpmlImportBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Args options = new Args(args);
        try (FeedServer feeds = FeedServer.start();
                ConfigurableApplicationContext context = Bench.start(TributaryApplication.class, options,
                        "spring.main.web-application-type=servlet", "server.address=127.0.0.1", "server.port=0",
                        "tributary.crawler.allow-private=127.0.0.0/8", "tributary.crawler.concurrency=0",
                        "tributary.fanout.workers=0", "tributary.api.rate-limit.enabled=false",
                        // The production default, over the tests' longer one on the class path.
                        "tributary.api.opml.check-budget=500ms",
                        "logging.level.org.springframework.boot.thymeleaf=error", "logging.level.org.springdoc=error")) {
            run(context, feeds, options);
        }
    }

    private static void run(ConfigurableApplicationContext context, FeedServer feeds, Args options) {
        int outlines = options.integer("outlines", 200);
        int rounds = options.integer("rounds", 3);
        ApiClient api = new ApiClient(((WebServerApplicationContext) context).getWebServer().getPort());
        Sources sources = context.getBean(Sources.class);
        Subscriptions subscriptions = context.getBean(Subscriptions.class);
        String feed = TestFeeds.numbered("Bench feed", 10, Instant.now().minusSeconds(60));
        Series imports = new Series("import");
        Series direct = new Series("pubsub subscribe x" + outlines);
        Series roundTrips = new Series("HTTP round trip x" + outlines);
        // Round 0 warms the JIT, the connection pools and the OpenAPI document the client checks answers against.
        for (int round = 0; round <= rounds; round++) {
            boolean measured = round > 0;
            String prefix = "/r" + round + "/";
            IntStream.range(0, outlines).forEach(i -> feeds.feed(prefix + "f" + i + ".xml", feed));
            TestUser importer = api.newUser("bimp");
            String document = opml(IntStream.range(0, outlines).mapToObj(i -> feeds.url(prefix + "f" + i + ".xml").toString()).toList());

            long start = System.nanoTime();
            ApiResponse result = api.send("POST", "/api/v1/subscriptions/import", importer.token(), document, "text/x-opml");
            double importMillis = (System.nanoTime() - start) / 1e6;
            if (result.status() != 200 || result.json().path("imported").asInt() != outlines) {
                throw new IllegalStateException("the import did not subscribe to every feed: " + result);
            }
            imports.add(measured, importMillis);

            TestUser subscriber = api.newUser("bsub");
            List<Long> registered = IntStream.range(0, outlines)
                    .mapToObj(i -> sources.feed("https://bench.tributary.test/r" + System.nanoTime() + "/" + i).id()).toList();
            start = System.nanoTime();
            registered.forEach(id -> subscriptions.subscribe(subscriber.numericId(), id, null));
            double directMillis = (System.nanoTime() - start) / 1e6;
            direct.add(measured, directMillis);

            start = System.nanoTime();
            for (int i = 0; i < outlines; i++) {
                api.get("/api/v1/me", subscriber.token());
            }
            double tripMillis = (System.nanoTime() - start) / 1e6;
            roundTrips.add(measured, tripMillis);
            System.out.println(Bench.format("round %d: import %,.0f ms (%d imported, %d unchecked, %d errors, %d feeds fetched), "
                    + "pubsub subscribe x%d %,.0f ms, HTTP round trip x%d %,.0f ms%s", round, importMillis,
                    result.json().path("imported").asInt(), result.json().path("unchecked").size(), result.json().path("errors").size(),
                    IntStream.range(0, outlines).filter(i -> !feeds.requests(prefix + "f" + i + ".xml").isEmpty()).count(),
                    outlines, directMillis, outlines, tripMillis, measured ? "" : " (warm-up, not counted)"));
        }
        System.out.println();
        System.out.println(Bench.format("%-26s %10s %10s %10s", "median of " + rounds, "median ms", "min ms", "max ms"));
        for (Series series : List.of(imports, direct, roundTrips)) {
            System.out.println(Bench.format("%-26s %10.0f %10.0f %10.0f", series.name, series.median(), series.min(), series.max()));
        }
        System.out.println(Bench.format("target: import of %d outlines < %.0f ms: %s", outlines, TARGET_MILLIS,
                imports.median() < TARGET_MILLIS ? "met" : "NOT MET"));
        System.out.println(Bench.format("opml: %.0f ms vs baseline %.0f ms = %.2f", imports.median(), direct.median(),
                imports.median() / direct.median()));
    }

    private static String opml(List<String> urls) {
        StringBuilder body = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head><title>bench</title>"
                + "</head><body>\n<outline text=\"Bench\">\n");
        for (int i = 0; i < urls.size(); i++) {
            body.append("<outline type=\"rss\" text=\"Feed ").append(i).append("\" xmlUrl=\"").append(urls.get(i)).append("\"/>\n");
        }
        return body.append("</outline>\n</body></opml>\n").toString();
    }
}
