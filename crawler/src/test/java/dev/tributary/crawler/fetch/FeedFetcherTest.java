package dev.tributary.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Flux;

/** The ordinary life of a fetch against a well-behaved local server: validators, encodings, statuses, redirects. */
class FeedFetcherTest {

    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final byte[] FEED = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title></channel></rss>"
            .repeat(50).getBytes(StandardCharsets.UTF_8);

    static FeedFetcher fetcher;
    TestHttpServer server = TestHttpServer.start();

    @BeforeAll
    static void startFetcher() {
        fetcher = new FeedFetcher(TestLimits.testServerAllowed().build(), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterAll
    static void closeFetcher() {
        fetcher.close();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    static FetchOutcome fetch(FeedFetcher fetcher, FetchRequest request) {
        return fetcher.fetch(request).block(Duration.ofSeconds(20));
    }

    static FetchOutcome fetch(URI url) {
        return fetch(fetcher, FetchRequest.of(url));
    }

    static FetchResult result(FetchOutcome outcome) {
        assertThat(outcome).isInstanceOf(FetchResult.class);
        return (FetchResult) outcome;
    }

    static FetchFailure failure(FetchOutcome outcome) {
        assertThat(outcome).isInstanceOf(FetchFailure.class);
        return (FetchFailure) outcome;
    }

    @Test
    void returnsTheBodyValidatorsAndFreshnessOfA200() {
        server.reply("/feed", 200, Map.of("ETag", "\"v1\"", "Last-Modified", "Sat, 28 Feb 2026 10:00:00 GMT",
                "Cache-Control", "public, max-age=600", "Expires", "Sun, 01 Mar 2026 13:00:00 GMT",
                "Content-Type", "application/rss+xml; charset=utf-8"), FEED);

        FetchResult result = result(fetch(server.url("/feed")));

        assertThat(result.status()).isEqualTo(200);
        assertThat(result.notModified()).isFalse();
        assertThat(result.body()).isEqualTo(FEED);
        assertThat(result.etag()).isEqualTo("\"v1\"");
        assertThat(result.lastModified()).isEqualTo("Sat, 28 Feb 2026 10:00:00 GMT");
        assertThat(result.maxAge()).isEqualTo(Duration.ofMinutes(10));
        assertThat(result.expires()).isEqualTo(Instant.parse("2026-03-01T13:00:00Z"));
        assertThat(result.contentType()).isEqualTo("application/rss+xml; charset=utf-8");
        assertThat(result.finalUrl()).isEqualTo(server.url("/feed"));
        assertThat(result.movedTo()).isNull();
    }

    @Test
    void sendsUserAgentAcceptAndAcceptEncoding() {
        server.reply("/feed", 200, Map.of(), FEED);

        fetch(server.url("/feed"));

        TestHttpServer.Seen seen = server.last();
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.header("User-Agent")).isEqualTo(TestLimits.USER_AGENT);
        assertThat(seen.header("Accept-Encoding")).isEqualTo("gzip, deflate");
        assertThat(seen.header("Accept")).startsWith("application/rss+xml, application/atom+xml");
        assertThat(seen.header("If-None-Match")).isNull();
        assertThat(seen.header("If-Modified-Since")).isNull();
    }

    @Test
    void conditionalGetSendsTheValidatorsAndA304ReadsAsNotModified() {
        server.on("/feed", exchange -> {
            boolean fresh = "\"v1\"".equals(exchange.getRequestHeaders().getFirst("If-None-Match"));
            TestHttpServer.send(exchange, fresh ? 304 : 200, Map.of("ETag", fresh ? "\"v1\"" : "\"v2\"", "Cache-Control", "max-age=60"),
                    fresh ? new byte[0] : FEED);
        });

        FetchResult result = result(fetch(fetcher, new FetchRequest(server.url("/feed"), "\"v1\"", "Sat, 28 Feb 2026 10:00:00 GMT")));

        assertThat(server.last().header("If-None-Match")).isEqualTo("\"v1\"");
        assertThat(server.last().header("If-Modified-Since")).isEqualTo("Sat, 28 Feb 2026 10:00:00 GMT");
        assertThat(result.status()).isEqualTo(304);
        assertThat(result.notModified()).isTrue();
        assertThat(result.body()).isEmpty();
        assertThat(result.etag()).isEqualTo("\"v1\"");
        assertThat(result.maxAge()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void a304WithoutValidatorsKeepsTheOnesSent() {
        server.reply("/feed", 304, Map.of(), new byte[0]);

        FetchResult result = result(fetch(fetcher, new FetchRequest(server.url("/feed"), "\"v1\"", "Sat, 28 Feb 2026 10:00:00 GMT")));

        assertThat(result.notModified()).isTrue();
        assertThat(result.etag()).isEqualTo("\"v1\"");
        assertThat(result.lastModified()).isEqualTo("Sat, 28 Feb 2026 10:00:00 GMT");
    }

    @Test
    void validatorsWithLineBreaksAreNotSent() {
        server.reply("/feed", 200, Map.of(), FEED);

        FetchResult result = result(fetch(fetcher, new FetchRequest(server.url("/feed"), "\"v1\"\r\nX-Injected: yes", "yesterday\n")));

        assertThat(result.body()).isEqualTo(FEED);
        assertThat(server.last().header("If-None-Match")).isNull();
        assertThat(server.last().header("X-Injected")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "x-gzip", "zlib", "raw-deflate"})
    void decodesCompressedBodies(String encoding) throws IOException {
        byte[] encoded = Compress.encode(encoding, FEED);
        server.reply("/feed", 200, Map.of("Content-Encoding", encoding.equals("zlib") || encoding.equals("raw-deflate") ? "deflate" : encoding), encoded);

        FetchResult result = result(fetch(server.url("/feed")));

        assertThat(encoded.length).isLessThan(FEED.length);
        assertThat(result.body()).isEqualTo(FEED);
    }

    @ParameterizedTest
    @CsvSource({"401, FORBIDDEN", "403, FORBIDDEN", "404, NOT_FOUND", "410, GONE", "429, RATE_LIMITED", "400, CLIENT_ERROR",
            "418, CLIENT_ERROR", "451, CLIENT_ERROR", "500, SERVER_ERROR", "502, SERVER_ERROR", "503, SERVER_ERROR"})
    void classifiesErrorStatuses(int status, FailureReason reason) {
        server.reply("/feed", status, Map.of(), "error page".getBytes(StandardCharsets.UTF_8));

        FetchFailure failure = failure(fetch(server.url("/feed")));

        assertThat(failure.reason()).isEqualTo(reason);
        assertThat(failure.status()).isEqualTo(status);
        assertThat(failure.finalUrl()).isEqualTo(server.url("/feed"));
        assertThat(failure.retryAfter()).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"429|120|PT2M", "503|0|PT0S", "429|Sun, 01 Mar 2026 12:05:00 GMT|PT5M",
            "503|Sunday, 01-Mar-26 12:00:30 GMT|PT30S", "429|Sun Mar  1 12:01:00 2026|PT1M", "503|Sat, 28 Feb 2026 12:00:00 GMT|PT0S"})
    void readsRetryAfterAsSecondsOrADate(int status, String retryAfter, Duration expected) {
        server.reply("/feed", status, Map.of("Retry-After", retryAfter), new byte[0]);

        FetchFailure failure = failure(fetch(server.url("/feed")));

        assertThat(failure.retryAfter()).isEqualTo(expected);
    }

    @Test
    void ignoresRetryAfterOnOtherStatusesAndWhenUnparseable() {
        server.reply("/gone", 500, Map.of("Retry-After", "60"), new byte[0]);
        server.reply("/busy", 503, Map.of("Retry-After", "soon"), new byte[0]);

        assertThat(failure(fetch(server.url("/gone"))).retryAfter()).isNull();
        assertThat(failure(fetch(server.url("/busy"))).retryAfter()).isNull();
    }

    @Test
    void followsPermanentRedirectsAndReportsWhereTheFeedMoved() {
        server.redirect("/old", 301, "/older");
        server.redirect("/older", 308, server.url("/new").toString());
        server.reply("/new", 200, Map.of(), FEED);

        FetchResult result = result(fetch(server.url("/old")));

        assertThat(result.body()).isEqualTo(FEED);
        assertThat(result.finalUrl()).isEqualTo(server.url("/new"));
        assertThat(result.movedTo()).isEqualTo(server.url("/new"));
    }

    @ParameterizedTest
    @ValueSource(ints = {302, 303, 307})
    void aTemporaryRedirectOnTheWayMeansTheFeedDidNotMove(int temporary) {
        server.redirect("/old", 301, "/between");
        server.redirect("/between", temporary, "/new");
        server.reply("/new", 200, Map.of(), FEED);

        FetchResult result = result(fetch(server.url("/old")));

        assertThat(result.finalUrl()).isEqualTo(server.url("/new"));
        assertThat(result.movedTo()).isNull();
    }

    @Test
    void resolvesRelativeLocationsAgainstTheCurrentUrl() {
        server.redirect("/a/b/feed", 302, "../c/feed?x=1");
        server.on("/a/c/feed", exchange -> {
            boolean first = "x=1".equals(exchange.getRequestURI().getRawQuery());
            TestHttpServer.send(exchange, first ? 302 : 200, first ? Map.of("Location", "?x=2") : Map.of(), first ? new byte[0] : FEED);
        });

        FetchResult result = result(fetch(server.url("/a/b/feed")));

        assertThat(result.finalUrl()).isEqualTo(server.url("/a/c/feed?x=2"));
        assertThat(server.seen()).extracting(TestHttpServer.Seen::path).containsExactly("/a/b/feed", "/a/c/feed?x=1", "/a/c/feed?x=2");
    }

    @Test
    void followsUpToMaxRedirectsAndFailsOnTheNext() {
        for (int i = 0; i < 6; i++) {
            server.redirect("/r" + i, 302, "/r" + (i + 1));
        }
        server.reply("/r6", 200, Map.of(), FEED);

        FetchFailure tooMany = failure(fetch(server.url("/r0")));
        assertThat(tooMany.reason()).isEqualTo(FailureReason.TOO_MANY_REDIRECTS);
        assertThat(tooMany.finalUrl()).isEqualTo(server.url("/r6"));

        assertThat(result(fetch(server.url("/r1"))).finalUrl()).isEqualTo(server.url("/r6"));
    }

    @Test
    void detectsARedirectLoop() {
        server.redirect("/a", 302, "/b");
        server.redirect("/b", 301, "http://127.0.0.1:" + server.port() + "/a#fragment");

        FetchFailure failure = failure(fetch(server.url("/a")));

        assertThat(failure.reason()).isEqualTo(FailureReason.REDIRECT_LOOP);
        assertThat(server.seen()).hasSize(2);
    }

    @Test
    void aRedirectWithoutLocationIsAProtocolError() {
        server.reply("/feed", 302, Map.of(), new byte[0]);

        FetchFailure failure = failure(fetch(server.url("/feed")));

        assertThat(failure.reason()).isEqualTo(FailureReason.PROTOCOL);
        assertThat(failure.status()).isEqualTo(302);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://127.0.0.1/feed", "file:///etc/passwd", "http://user:pw@127.0.0.1/feed", "gopher://127.0.0.1/"})
    void aRedirectOutOfHttpIsAnInvalidUrl(String location) {
        server.redirect("/feed", 302, location);

        FetchFailure failure = failure(fetch(server.url("/feed")));

        assertThat(failure.reason()).isEqualTo(FailureReason.INVALID_URL);
    }

    @Test
    void reusesConnectionsAcrossFetches() {
        server.reply("/feed", 200, Map.of(), FEED);

        for (int i = 0; i < 10; i++) {
            assertThat(result(fetch(server.url("/feed"))).body()).isEqualTo(FEED);
        }

        Set<Integer> clientPorts = new HashSet<>();
        server.seen().forEach(seen -> clientPorts.add(seen.remotePort()));
        // A connection goes back to the pool just after its response completes, so the next
        // fetch may race it and open another (three were seen on a quiet machine); without
        // keep-alive there would be ten, one a fetch.
        assertThat(clientPorts).as("most fetches reuse a connection").hasSizeLessThanOrEqualTo(5);
    }

    @Test
    void handlesManyConcurrentFetches() {
        server.reply("/feed", 200, Map.of("Content-Encoding", "gzip"), Compress.gzip(FEED));

        List<FetchOutcome> outcomes = Flux.range(0, 300)
                .flatMap(i -> fetcher.fetch(FetchRequest.of(server.url("/feed?n=" + i))), 100)
                .collectList()
                .block(Duration.ofSeconds(30));

        assertThat(outcomes).hasSize(300).allSatisfy(outcome -> assertThat(result(outcome).body()).isEqualTo(FEED));
    }

    /** Encodes bodies the ways servers do. */
    static final class Compress {

        static byte[] encode(String encoding, byte[] body) throws IOException {
            return switch (encoding) {
                case "gzip", "x-gzip" -> gzip(body);
                case "zlib" -> deflate(body, false);
                case "raw-deflate" -> deflate(body, true);
                default -> throw new IllegalArgumentException(encoding);
            };
        }

        static byte[] gzip(byte[] body) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
                gzip.write(body);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return out.toByteArray();
        }

        static byte[] deflate(byte[] body, boolean raw) throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (DeflaterOutputStream deflate = new DeflaterOutputStream(out, new Deflater(Deflater.DEFAULT_COMPRESSION, raw))) {
                deflate.write(body);
            }
            return out.toByteArray();
        }
    }
}
