package dev.tributary.crawler.fetch;

import static dev.tributary.crawler.fetch.FeedFetcherTest.FEED;
import static dev.tributary.crawler.fetch.FeedFetcherTest.failure;
import static dev.tributary.crawler.fetch.FeedFetcherTest.fetch;
import static dev.tributary.crawler.fetch.FeedFetcherTest.result;
import static dev.tributary.crawler.fetch.RawServer.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.fetch.FeedFetcherTest.Compress;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Servers that are slow, lying, broken or hostile: every case ends in a classified failure, none in an exception or a hang. */
class FeedFetcherHostileTest {

    static FeedFetcher fetcher;
    RawServer raw;

    @BeforeAll
    static void startFetcher() {
        fetcher = new FeedFetcher(TestLimits.testServerAllowed().timeout(Duration.ofSeconds(2)).build(), Clock.systemUTC());
    }

    @AfterAll
    static void closeFetcher() {
        fetcher.close();
    }

    @AfterEach
    void stopServer() {
        if (raw != null) {
            raw.close();
        }
    }

    private FetchFailure failing(RawServer.Behaviour behaviour) {
        raw = RawServer.start(behaviour);
        return failure(fetch(raw.url("/feed")));
    }

    private static FetchOutcome fetch(URI url) {
        return FeedFetcherTest.fetch(fetcher, FetchRequest.of(url));
    }

    private static void respond(Socket socket, String head, byte[] body) throws IOException {
        write(socket, head);
        socket.getOutputStream().write(body);
        socket.getOutputStream().flush();
    }

    @Test
    void cutsASlowDripAtTheTotalTimeout() {
        FetchFailure failure = failing(socket -> {
            raw.readRequestHead(socket);
            write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n");
            for (int i = 0; i < 1000; i++) {
                write(socket, "x");
                TimeUnit.SECONDS.sleep(1);
            }
        });

        assertThat(failure.reason()).isEqualTo(FailureReason.TIMEOUT);
        assertThat(failure.finalUrl()).isEqualTo(raw.url("/feed"));
    }

    @Test
    void theTimeoutCoversAllRedirectsTogether() {
        // Each hop answers well within the 2 s timeout; the chain as a whole does not.
        raw = RawServer.start(socket -> {
            String head = raw.readRequestHead(socket);
            int hop = Integer.parseInt(head.substring(head.indexOf("/hop") + 4, head.indexOf(" HTTP/")));
            TimeUnit.MILLISECONDS.sleep(600);
            write(socket, "HTTP/1.1 302 Found\r\nLocation: /hop" + (hop + 1) + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            socket.close();
        });

        FetchFailure failure = failure(fetch(raw.url("/hop0")));

        assertThat(failure.reason()).isEqualTo(FailureReason.TIMEOUT);
        assertThat(failure.finalUrl().getPath()).isNotEqualTo("/hop0");
    }

    @Test
    void aRefusedConnectionIsConnect() throws IOException {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }

        FetchFailure failure = failure(fetch(URI.create("http://127.0.0.1:" + port + "/feed")));

        assertThat(failure.reason()).isEqualTo(FailureReason.CONNECT);
    }

    @Test
    void anUnknownHostIsDns() {
        FakeDns dns = FakeDns.of(Map.of());
        try (FeedFetcher fetcher = new FeedFetcher(TestLimits.testServerAllowed().build(), Clock.systemUTC(),
                (loops, guard) -> new GuardedResolverGroup(dns, guard), null)) {
            FetchFailure failure = failure(FeedFetcherTest.fetch(fetcher, FetchRequest.of(URI.create("http://no-such-host.example.test/feed"))));

            assertThat(failure.reason()).isEqualTo(FailureReason.DNS);
            assertThat(dns.lookups("no-such-host.example.test")).isEqualTo(1);
        }
    }

    @Test
    void refusesABodyWhoseContentLengthIsOverTheLimitWithoutReadingIt() throws Exception {
        // Headers only: had the fetcher waited for the body it would time out instead.
        FetchFailure failure = failing(socket -> {
            raw.readRequestHead(socket);
            write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 50000000\r\n\r\n");
        });

        assertThat(failure.reason()).isEqualTo(FailureReason.TOO_LARGE);
        assertThat(raw.awaitAllClosed(Duration.ofSeconds(5))).as("connection closed").isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Transfer-Encoding: chunked", "Connection: close"})
    void abortsAnEndlessBodyOnceItPassesTheLimit(String framing) throws Exception {
        CompletableFuture<Throwable> serverSaw = new CompletableFuture<>();
        FetchFailure failure = failing(socket -> {
            raw.readRequestHead(socket);
            boolean chunked = framing.startsWith("Transfer");
            write(socket, "HTTP/1.1 200 OK\r\n" + framing + "\r\n\r\n");
            byte[] block = new byte[16 * 1024];
            OutputStream out = socket.getOutputStream();
            try {
                while (true) {
                    if (chunked) {
                        out.write((Integer.toHexString(block.length) + "\r\n").getBytes());
                    }
                    out.write(block);
                    if (chunked) {
                        out.write("\r\n".getBytes());
                    }
                }
            } catch (IOException aborted) {
                serverSaw.complete(aborted);
            }
        });

        assertThat(failure.reason()).isEqualTo(FailureReason.TOO_LARGE);
        assertThat(serverSaw.get(5, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
    }

    @Test
    void stopsAGzipBombAtTheDecompressedLimit() {
        byte[] bomb = Compress.gzip(new byte[10 * 1024 * 1024]);
        try (FeedFetcher fetcher = new FeedFetcher(TestLimits.testServerAllowed().maxDecompressedBytes(1024 * 1024).build(), Clock.systemUTC());
                TestHttpServer server = TestHttpServer.start()) {
            server.reply("/feed", 200, Map.of("Content-Encoding", "gzip"), bomb);

            FetchFailure failure = failure(FeedFetcherTest.fetch(fetcher, FetchRequest.of(server.url("/feed"))));

            assertThat(bomb.length).isLessThan(20 * 1024);
            assertThat(failure.reason()).isEqualTo(FailureReason.DECOMPRESSED_TOO_LARGE);
        }
    }

    @Test
    void appliesTheSentSizeLimitToCompressedBodiesToo() {
        byte[] noise = new byte[64 * 1024];
        new Random(7).nextBytes(noise);
        try (FeedFetcher fetcher = new FeedFetcher(TestLimits.testServerAllowed().maxBodyBytes(16 * 1024).build(), Clock.systemUTC());
                TestHttpServer server = TestHttpServer.start()) {
            server.reply("/feed", 200, Map.of("Content-Encoding", "gzip"), Compress.gzip(noise));

            FetchFailure failure = failure(FeedFetcherTest.fetch(fetcher, FetchRequest.of(server.url("/feed"))));

            assertThat(failure.reason()).isEqualTo(FailureReason.TOO_LARGE);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"NOT HTTP\r\n\r\n", "HTTP/1.1 abc OK\r\n\r\n",
            "\u0000\u0001\u0002\u00ff\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"})
    void garbageIsAProtocolError(String response) {
        FetchFailure failure = failing(socket -> {
            raw.readRequestHead(socket);
            write(socket, response);
            socket.shutdownOutput();
        });

        assertThat(failure.reason()).isEqualTo(FailureReason.PROTOCOL);
    }

    @Test
    void aServerThatClosesWithoutAnsweringIsAProtocolError() {
        FetchFailure failure = failing(socket -> {
            raw.readRequestHead(socket);
            socket.close();
        });

        assertThat(failure.reason()).isEqualTo(FailureReason.PROTOCOL);
    }

    @Test
    void hugeHeadersAreAProtocolError() {
        FetchFailure failure = failing(socket -> {
            raw.readRequestHead(socket);
            write(socket, "HTTP/1.1 200 OK\r\nX-Padding: " + "a".repeat(200_000) + "\r\nContent-Length: 2\r\n\r\nok");
        });

        assertThat(failure.reason()).isEqualTo(FailureReason.PROTOCOL);
    }

    @Test
    void aBodyShorterThanItsContentLengthIsAProtocolError() {
        FetchFailure failure = failing(socket -> {
            raw.readRequestHead(socket);
            write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly this");
            socket.close();
        });

        assertThat(failure.reason()).isEqualTo(FailureReason.PROTOCOL);
    }

    @Test
    void aBodyLongerThanItsContentLengthIsCutAtTheLength() {
        raw = RawServer.start(socket -> {
            raw.readRequestHead(socket);
            write(socket, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello and more");
        });

        FetchResult result = result(fetch(raw.url("/feed")));

        assertThat(new String(result.body())).isEqualTo("hello");
    }

    @ParameterizedTest
    @ValueSource(strings = {"truncated", "corrupt", "bad-crc", "not-gzip", "br"})
    void brokenCompressionIsAProtocolError(String kind) {
        byte[] gzip = Compress.gzip(FEED);
        byte[] body = switch (kind) {
            case "truncated" -> java.util.Arrays.copyOf(gzip, gzip.length / 2);
            case "corrupt" -> corrupt(gzip, 20);
            case "bad-crc" -> corrupt(gzip, gzip.length - 6);
            case "not-gzip", "br" -> FEED;
            default -> throw new IllegalArgumentException(kind);
        };
        String encoding = kind.equals("br") ? "br" : "gzip";
        try (TestHttpServer server = TestHttpServer.start()) {
            server.reply("/feed", 200, Map.of("Content-Encoding", encoding), body);

            FetchFailure failure = failure(fetch(server.url("/feed")));

            assertThat(failure.reason()).isEqualTo(FailureReason.PROTOCOL);
        }
    }

    private static byte[] corrupt(byte[] bytes, int at) {
        byte[] copy = bytes.clone();
        copy[at] ^= 0x55;
        return copy;
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/1.1 300 Multiple Choices\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 305 Use Proxy\r\nLocation: /x\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
            "HTTP/1.1 601 Made Up\r\nContent-Length: 0\r\n\r\n"})
    void unexpectedStatusesAreProtocolErrors(String response) {
        FetchFailure failure = failing(socket -> {
            raw.readRequestHead(socket);
            write(socket, response);
        });

        assertThat(failure.reason()).isEqualTo(FailureReason.PROTOCOL);
    }

    @Test
    void fetchesOverHttpsFromATrustedServer() throws Exception {
        requireTls();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (var in = getClass().getResourceAsStream("/fetch/self-signed.p12")) {
            store.load(in, "changeit".toCharArray());
        }
        SslContext trustingTheTestCertificate = SslContextBuilder.forClient()
                .trustManager((X509Certificate) store.getCertificate("test"))
                .build();
        try (TestHttpServer server = TestHttpServer.startTlsSelfSigned();
                FeedFetcher fetcher = new FeedFetcher(TestLimits.testServerAllowed().build(), Clock.systemUTC(),
                        (loops, guard) -> new GuardedResolverGroup(FakeDns.of(Map.of()), guard), trustingTheTestCertificate)) {
            server.reply("/feed", 200, Map.of("Content-Encoding", "gzip"), Compress.gzip(FEED));

            FetchResult result = result(FeedFetcherTest.fetch(fetcher, FetchRequest.of(server.url("/feed"))));

            assertThat(result.finalUrl().getScheme()).isEqualTo("https");
            assertThat(result.body()).isEqualTo(FEED);
        }
    }

    /** Reactor Netty's TLS needs netty-codec-classes-quic (the crawler pom declares it): a build without it fails here. */
    private static void requireTls() {
        assertThat(FeedFetcher.isTlsAvailable()).as("Reactor Netty TLS loads (io.netty:netty-codec-classes-quic)").isTrue();
    }

    @Test
    void aTlsHandshakeWithAnUntrustedCertificateIsTls() {
        requireTls();
        try (TestHttpServer server = TestHttpServer.startTlsSelfSigned()) {
            server.reply("/feed", 200, Map.of(), FEED);

            FetchFailure failure = failure(fetch(server.url("/feed")));

            assertThat(failure.reason()).isEqualTo(FailureReason.TLS);
            assertThat(server.seen()).isEmpty();
        }
    }

    @Test
    void httpsToAServerThatDoesNotSpeakTlsIsTls() {
        requireTls();
        raw = RawServer.start(socket -> {
            socket.getInputStream().read(new byte[512]);
            write(socket, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        });

        FetchFailure failure = failure(fetch(URI.create("https://127.0.0.1:" + raw.port() + "/feed")));

        assertThat(failure.reason()).isEqualTo(FailureReason.TLS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://127.0.0.1/feed", "file:///etc/passwd", "jar:file:/x.jar!/feed.xml", "gopher://127.0.0.1:70/", "data:text/plain,feed",
            "http:///no-host", "http://user@127.0.0.1/feed", "http://user:secret@127.0.0.1/feed", "http://127.0.0.1:0/", "http://127.0.0.1:99999/",
            "http://1.2.3.4.5/", "http://256.1.1.1/", "http://0x100000000/", "http://exa_mple.com/", "mailto:feeds@example.test", "feed.xml",
            "//127.0.0.1/feed", "http://[::1/", "http://[zz::1]/"})
    void malformedAndForeignUrlsAreInvalidUrls(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            return;
        }

        FetchFailure failure = failure(fetch(uri));

        assertThat(failure.reason()).as(failure.toString()).isEqualTo(FailureReason.INVALID_URL);
    }
}
