package dev.tributary.api.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServer;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

/**
 * Abuse drill (issue 17), black box over HTTP: one person imports 5,000 feeds on servers that
 * accept connections and never answer, spread over eight loopback addresses as an attacker with
 * several addresses would, while another person's feed gets a new entry; that entry still reaches
 * the other person's home timeline within one crawl interval. Not part of {@code ./mvnw test}:
 * it boots a second JVM and imports 5,000 outlines, minutes on a small machine. Run it on its own:
 * {@code ./mvnw -B -o test -pl api -am -Dtest=TarPitDrill -Dsurefire.failIfNoSpecifiedTests=false}.
 *
 * <p>This JVM only holds the embedded servers (role {@code api}, no crawler, no fan-out); the node
 * under test is a separate JVM with every role, crawling with the settings of the in-process
 * {@code TarPitFairnessTest}.
 */
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "tributary.roles=api", "tributary.fanout.workers=0"})
class TarPitDrill {

    private static final int TAR_PIT_FEEDS = 5_000;
    private static final Duration INTERVAL = Duration.ofSeconds(6);
    /** The reader's timeline is polled, and fan-out follows the fetch: what it adds to one interval. */
    private static final Duration DELIVERY = Duration.ofSeconds(2);
    private static final Duration IMPORT = Duration.ofMinutes(10);

    @Autowired Environment env;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopWhatWeStarted() throws InterruptedException {
        AppNode.stopAll(started);
    }

    @Test
    void anotherPersonsEntryArrivesWithinOneIntervalWhileFiveThousandTarPitsAreImported() throws Exception {
        Instant newest = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        List<TarPit> pits = new ArrayList<>();
        try (FeedServer server = FeedServer.start()) {
            for (int host = 2; host <= 9; host++) {
                pits.add(new TarPit(InetAddress.getByName("127.0.0." + host)));
            }
            AppNode node = AppNode.start(env, "tarpit", started,
                    "--tributary.roles=api,crawler,fanout", "--tributary.crawler.allow-private=127.0.0.0/8",
                    "--tributary.crawler.concurrency=8", "--tributary.crawler.poll-interval=100ms",
                    "--tributary.crawler.per-host-delay=0s", "--tributary.crawler.per-host-concurrency=2",
                    "--tributary.crawler.per-address-concurrency=2",
                    "--tributary.crawler.min-interval=" + INTERVAL.toSeconds() + "s",
                    "--tributary.crawler.max-interval=" + INTERVAL.toSeconds() + "s", "--tributary.crawler.jitter=0",
                    "--tributary.crawler.connect-timeout=2s", "--tributary.crawler.timeout=4s",
                    "--tributary.crawler.lease-ttl=10s");
            ApiClient api = new ApiClient(node.port());

            TestUser reader = api.newUser("reader");
            server.feed("/news.xml", TestFeeds.numbered("News", 1, newest));
            ApiResponse subscribed = api.post("/api/v1/subscriptions", reader.token(), Map.of("url", server.url("/news.xml").toString()));
            assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
            Await.until("the reader's first entry", AppNode.BOOT, () -> home(api, reader).contains("News entry 1"));

            TestUser attacker = api.newUser("attacker");
            String opml = IntStream.range(0, TAR_PIT_FEEDS)
                    .mapToObj(i -> "<outline type=\"rss\" text=\"p\" xmlUrl=\"http://" + pits.get(i % pits.size()).address() + "/" + i + ".xml\"/>")
                    .collect(Collectors.joining("", "<opml version=\"2.0\"><head/><body>", "</body></opml>"));
            // Five thousand subscriptions in one request: far longer than the client's usual 30 s.
            CompletableFuture<ApiResponse> imported = CompletableFuture.supplyAsync(() -> api.send(
                    api.builder("/api/v1/subscriptions/import", attacker.token()).timeout(IMPORT)
                            .header("Content-Type", "text/x-opml").POST(HttpRequest.BodyPublishers.ofString(opml))));
            Await.until("the tar pit is being fetched", IMPORT, () -> pits.stream().mapToInt(TarPit::accepted).sum() > 0);

            server.feed("/news.xml", TestFeeds.numbered("News", 2, newest.plusSeconds(60)));
            Await.until("the reader's new entry within one interval", INTERVAL.plus(DELIVERY),
                    () -> home(api, reader).contains("News entry 2"));

            ApiResponse answer = imported.get(IMPORT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.toString()).isLessThan(500);
            assertThat(node.answers("/livez")).isEqualTo(200);
        } finally {
            for (TarPit pit : pits) {
                pit.close();
            }
        }
    }

    private static String home(ApiClient api, TestUser reader) {
        return api.get("/api/v1/timelines/home", reader.token()).body();
    }

    /** Accepts connections on one address and never answers; closes them all at the end. */
    private static final class TarPit implements AutoCloseable {

        private final ServerSocket socket;
        private final List<Socket> held = new CopyOnWriteArrayList<>();
        private final AtomicInteger accepted = new AtomicInteger();

        TarPit(InetAddress address) throws IOException {
            socket = new ServerSocket(0, 1000, address);
            Thread.ofVirtual().start(this::accept);
        }

        String address() {
            return socket.getInetAddress().getHostAddress() + ":" + socket.getLocalPort();
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
                in.transferTo(OutputStream.nullOutputStream());
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
