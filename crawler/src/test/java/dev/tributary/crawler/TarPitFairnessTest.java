package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.testing.CrawlerTestApplication;
import dev.tributary.crawler.testing.FeedServer;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.IndexNotReadyException;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The abuse of issue 17, black box: one person imports a pile of feeds on a server that accepts
 * connections and never answers, while another person's feed gets a new entry. The other
 * person's entry still arrives within one crawl interval: the tar pit holds no more crawl slots
 * than per-address politeness allows, and the import's never-fetched feeds do not go ahead of
 * feeds that are due.
 */
class TarPitFairnessTest {

    /** Issue 17 says 5,000; fewer keep the test quick, and 8 crawl slots are as easily filled. */
    private static final int TAR_PIT_FEEDS = 300;
    private static final Duration INTERVAL = Duration.ofSeconds(6);
    private static final long ATTACKER = 7_100_001L;
    private static final long READER = 7_100_002L;

    private static ConfigurableApplicationContext node() {
        return new SpringApplicationBuilder(CrawlerTestApplication.class)
                .web(WebApplicationType.NONE)
                .properties("tributary.crawler.concurrency=8", "tributary.crawler.poll-interval=100ms",
                        "tributary.crawler.allow-private=127.0.0.0/8", "tributary.crawler.per-host-delay=0s",
                        "tributary.crawler.per-host-concurrency=2", "tributary.crawler.per-address-concurrency=2",
                        "tributary.crawler.min-interval=" + INTERVAL.toSeconds() + "s", "tributary.crawler.jitter=0",
                        "tributary.crawler.connect-timeout=2s", "tributary.crawler.timeout=4s",
                        "tributary.crawler.lease-ttl=10s", "tributary.fanout.workers=0",
                        "tributary.storage.cleaner.enabled=false", "logging.level.dev.tributary.crawler.refresh=DEBUG")
                .run();
    }

    /** On a fresh database the source index is back-filled at start-up: subscribing waits for it. */
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

    @Test
    void anotherPersonsEntryArrivesWithinOneIntervalWhileAnImportOfTarPitsIsCrawled() throws Exception {
        whileATarPitIsCrawled(TAR_PIT_FEEDS, false);
    }

    /**
     * The same with the tar pit's feeds fetched before and due first, so that only politeness
     * stands between them and every crawl slot: a feed whose host is busy is handed back rather
     * than waited for in a slot.
     */
    @Test
    void aTarPitOfFeedsFetchedBeforeHoldsNoMoreSlotsThanItsPoliteness() throws Exception {
        whileATarPitIsCrawled(TAR_PIT_FEEDS / 3, true);
    }

    private static void whileATarPitIsCrawled(int feeds, boolean fetchedBefore) throws Exception {
        String prefix = "/" + UUID.randomUUID();
        Instant newest = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        try (TarPit pit = new TarPit(); FeedServer server = FeedServer.start();
                ConfigurableApplicationContext node = node()) {
            awaitIndexes(node);
            FeedResolver resolver = node.getBean(FeedResolver.class);
            Subscriptions subscriptions = node.getBean(Subscriptions.class);
            Items items = node.getBean(Items.class);
            server.feed(prefix + "/news.xml", TestFeeds.numbered("News", 1, newest));
            long news = resolver.resolve(server.url(prefix + "/news.xml").toString()).id();
            subscriptions.subscribe(READER, news, List.of());

            // As an OPML import does: register each outline (due at once), then subscribe to it.
            String pitUrl = "http://127.0.0.1:" + pit.port() + prefix + "/";
            List<Long> pitFeeds = new ArrayList<>();
            for (int i = 0; i < feeds; i++) {
                long feed = resolver.register(pitUrl + i + ".xml").id();
                subscriptions.subscribe(ATTACKER, feed, List.of());
                pitFeeds.add(feed);
            }
            JdbcClient jdbc = node.getBean(JdbcClient.class);
            if (fetchedBefore) {
                jdbc.sql("UPDATE crawl_state SET fetch_count = 1 WHERE url LIKE ?").param(pitUrl + "%").update();
            }
            server.feed(prefix + "/news.xml", TestFeeds.numbered("News", 2, newest.plusSeconds(60)));
            // Its last fetch half an interval ago, however long the import took (under load it
            // can take longer than an interval, and the feed would have been fetched before the news).
            jdbc.sql("UPDATE crawl_state SET next_fetch_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND WHERE source_id = ?")
                    .params(INTERVAL.dividedBy(2).toNanos() / 1000, news).update();

            Await.until("the other person's new entry", INTERVAL, () -> items.ofSource(news, null, null, 10).stream()
                    .anyMatch(item -> item.body().title().equals("News entry 2")));
            assertThat(pit.accepted()).as("the tar pit was being crawled meanwhile").isPositive();
            // Unread, they are crawled no more: the next test's node does not inherit them.
            pitFeeds.forEach(feed -> subscriptions.unsubscribe(ATTACKER, feed));
        }
    }

    /** Accepts connections and never answers; closes them all at the end. */
    private static final class TarPit implements AutoCloseable {

        private final ServerSocket socket;
        private final List<Socket> held = new CopyOnWriteArrayList<>();
        private final AtomicInteger accepted = new AtomicInteger();

        TarPit() throws IOException {
            socket = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress());
            Thread.ofVirtual().start(this::accept);
        }

        int port() {
            return socket.getLocalPort();
        }

        int accepted() {
            return accepted.get();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    accepted.incrementAndGet();
                    held.add(connection);
                    // Read and drop the request so the client sees a live connection, never an answer.
                    Thread.ofVirtual().start(() -> drain(connection));
                } catch (IOException e) {
                    return;
                }
            }
        }

        private static void drain(Socket connection) {
            try (InputStream in = connection.getInputStream()) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (IOException e) {
                // closed by either side
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket connection : held) {
                connection.close();
            }
        }
    }
}
