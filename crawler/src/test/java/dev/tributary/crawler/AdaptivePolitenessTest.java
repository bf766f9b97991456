package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tributary.crawler.schedule.HostGate;
import dev.tributary.crawler.testing.CrawlerTestApplication;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.IndexNotReadyException;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Adaptive politeness end to end, counted at the server: the crawl loop at the default
 * politeness crawls a host of many feeds that answers cleanly with more requests at once than
 * the 2 it starts with; once the host answers 503, it gets fewer, down to one at a time.
 */
class AdaptivePolitenessTest {

    private static final int FEEDS = 100;
    private static final long READER = 7_200_001L;

    @Test
    void aHostThatAnswersCleanlyGetsMoreAtOnceAndOneThatAnswers503GetsFewer() throws Exception {
        String prefix = "/" + UUID.randomUUID() + "/";
        try (CountingServer server = new CountingServer(TestFeeds.numbered("Farm", 3, Instant.now().minusSeconds(3600)));
                ConfigurableApplicationContext node = node()) {
            awaitIndexes(node);
            FeedResolver resolver = node.getBean(FeedResolver.class);
            Subscriptions subscriptions = node.getBean(Subscriptions.class);
            JdbcClient jdbc = node.getBean(JdbcClient.class);
            HostGate gate = node.getBean(HostGate.class);
            String base = "http://127.0.0.1:" + server.port() + prefix;
            String host = "127.0.0.1:" + server.port();
            for (int i = 0; i < FEEDS; i++) {
                subscriptions.subscribe(READER, resolver.register(base + i + ".xml").id(), List.of());
            }

            Await.until("every feed fetched once", Duration.ofSeconds(60), () -> fetched(jdbc, base) == FEEDS);
            assertThat(server.mostAtOnce()).as("a fast, clean host gets more at once than the 2 it starts with")
                    .isGreaterThan(2);
            int earned = gate.slots(host);
            assertThat(earned).isGreaterThan(2);

            server.failWith503();
            jdbc.sql("UPDATE crawl_state SET next_fetch_at = UTC_TIMESTAMP(6) WHERE url LIKE ?").param(base + "%").update();
            Await.until("the host's pace cut to one at a time", Duration.ofSeconds(60), () -> gate.slots(host) == 1);
            // Requests admitted before the cut may still be at the server; from now on each new one
            // is admitted only once none is in flight.
            int cut = server.arrivals();
            Await.until("more requests after the cut", Duration.ofSeconds(60), () -> server.arrivals() >= cut + earned + 10
                    || fetched(jdbc, base, 2) == FEEDS);
            List<Integer> after = server.atOnceOnArrival().subList(cut, server.arrivals());
            assertThat(after).as("requests after the cut").isNotEmpty();
            // The first arrivals after the cut may still overlap those admitted before it.
            assertThat(after.subList(Math.min(after.size() - 1, earned), after.size())).as("one at a time once those drained")
                    .allMatch(atOnce -> atOnce == 1);
            assertThat(gate.slots(host)).isLessThan(earned);
            unsubscribeAll(node, base, subscriptions);
        }
    }

    private static ConfigurableApplicationContext node() {
        return new SpringApplicationBuilder(CrawlerTestApplication.class)
                .web(WebApplicationType.NONE)
                // Default politeness (2 at once to start, up to 16), but no delay to start with and at
                // most 100 ms after trouble, so that the 503s come quickly; loopback, short timeouts.
                .properties("tributary.crawler.per-host-delay=0s", "tributary.crawler.politeness.max-delay=100ms",
                        "tributary.crawler.poll-interval=100ms", "tributary.crawler.allow-private=127.0.0.0/8",
                        "tributary.crawler.jitter=0", "tributary.crawler.connect-timeout=2s", "tributary.crawler.timeout=5s",
                        "tributary.crawler.lease-ttl=20s", "tributary.fanout.workers=0",
                        "tributary.storage.cleaner.enabled=false")
                .run();
    }

    private static long fetched(JdbcClient jdbc, String base) {
        return fetched(jdbc, base, 1);
    }

    private static long fetched(JdbcClient jdbc, String base, int times) {
        return jdbc.sql("SELECT COUNT(*) FROM crawl_state WHERE url LIKE ? AND fetch_count >= ?")
                .params(base + "%", times).query(Long.class).single();
    }

    /** Unread, the farm's feeds are crawled no more: a later test's node does not inherit them. */
    private static void unsubscribeAll(ConfigurableApplicationContext node, String base, Subscriptions subscriptions) {
        Sources sources = node.getBean(Sources.class);
        for (int i = 0; i < FEEDS; i++) {
            sources.findFeed(base + i + ".xml").ifPresent(feed -> subscriptions.unsubscribe(READER, feed.id()));
        }
    }

    private static void awaitIndexes(ConfigurableApplicationContext node) {
        Sources sources = node.getBean(Sources.class);
        Await.until("the source index to be ready", () -> {
            try {
                sources.findFeed("https://ready.example/");
                return true;
            } catch (IndexNotReadyException e) {
                return false;
            }
        });
    }

    /**
     * Serves one feed at every path, a few milliseconds late (so that requests overlap when the
     * crawler sends them together), or 503 once told; counts the requests in progress as each
     * arrives, and lets go of one before its answer is sent, so the crawler never sees an answer
     * the count still holds.
     */
    private static final class CountingServer implements AutoCloseable {

        private final HttpServer server;
        private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        private final byte[] feed;
        private final AtomicInteger inFlight = new AtomicInteger();
        private final AtomicInteger most = new AtomicInteger();
        private final List<Integer> atOnce = new CopyOnWriteArrayList<>();
        private volatile boolean failing;

        CountingServer(String feed) throws IOException {
            this.feed = feed.getBytes(StandardCharsets.UTF_8);
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
            server.createContext("/", this::handle);
            server.setExecutor(executor);
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        void failWith503() {
            failing = true;
        }

        int mostAtOnce() {
            return most.get();
        }

        int arrivals() {
            return atOnce.size();
        }

        List<Integer> atOnceOnArrival() {
            return List.copyOf(atOnce);
        }

        private void handle(HttpExchange exchange) throws IOException {
            try (exchange; InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
                int now = inFlight.incrementAndGet();
                atOnce.add(now);
                most.accumulateAndGet(now, Math::max);
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
                inFlight.decrementAndGet();
                if (failing) {
                    exchange.sendResponseHeaders(503, -1);
                    return;
                }
                exchange.getResponseHeaders().set("Content-Type", "application/rss+xml; charset=utf-8");
                exchange.sendResponseHeaders(200, feed.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(feed);
                }
            }
        }

        @Override
        public void close() {
            server.stop(0);
            executor.shutdownNow();
        }
    }
}
