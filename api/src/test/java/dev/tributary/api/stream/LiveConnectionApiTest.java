package dev.tributary.api.stream;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * How a live stream is carried. Over HTTP/1.x it takes its connection over ({@link LiveConnection}):
 * a plain 200 response delimited by the connection's close, a client's close seen at once (not at
 * the next heartbeat, 30 s here), a client that talks on its stream cut off. Over HTTP/2 (a second
 * instance with {@code server.http2.enabled}, and streams that last two seconds) it is an async
 * request with the same events.
 */
@ApiTest
class LiveConnectionApiTest {

    /** Well under the shared context's 30 s heartbeat: what is seen within it was not found by a heartbeat. */
    private static final Duration SOONER_THAN_A_HEARTBEAT = Duration.ofSeconds(10);

    private static ConfigurableApplicationContext http2;
    private static int http2Port;

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired HomeStreams streams;
    private ApiClient api;
    private Deliveries deliveries;
    private TestUser alice;
    private long feed;

    @BeforeAll
    static void http2Instance() {
        http2 = new SpringApplicationBuilder(TributaryApplication.class)
                .run("--server.port=0", "--server.address=127.0.0.1", "--tributary.roles=api", "--server.http2.enabled=true",
                        "--tributary.api.stream.max-duration=2s");
        http2Port = Integer.parseInt(http2.getEnvironment().getRequiredProperty("local.server.port"));
    }

    @AfterAll
    static void stopHttp2() {
        http2.close();
    }

    @BeforeEach
    void aFollower() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
        alice = api.newUser("live");
        feed = deliveries.feed();
        deliveries.follow(alice, feed);
    }

    @Test
    void overHttp11TheStreamIsAPlainResponseUntilTheConnectionClosesAndAClientsCloseIsSeenAtOnce() throws IOException {
        try (Socket socket = RawSockets.connect(port, 0)) {
            RawSockets.send(socket, "GET /api/v1/streaming/home HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
                    + "Authorization: Bearer " + alice.token() + "\r\n\r\n");
            Head head = head(socket.getInputStream());
            assertThat(head.status()).isEqualTo("HTTP/1.1 200 ");
            assertThat(head.headers()).containsEntry("content-type", "text/event-stream").containsEntry("connection", "close")
                    .containsEntry("x-accel-buffering", "no").doesNotContainKey("transfer-encoding")
                    .doesNotContainKey("content-length");
            assertThat(head.headers().get("cache-control")).as("the security headers are sent too").contains("no-store");
            assertThat(readUntil(socket.getInputStream(), "\n\n")).startsWith("event:unread\ndata:{");
            assertThat(streams.openStreams(alice.numericId())).isOne();

            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
            assertThat(readUntil(socket.getInputStream(), "\n\n")).startsWith("event:item\nid:" + id + "\ndata:{");
        }
        Await.until("the closed connection's stream to end", SOONER_THAN_A_HEARTBEAT,
                () -> streams.openStreams(alice.numericId()) == 0);
    }

    @Test
    void anHttp10ClientGetsTheSameStream() throws IOException {
        try (Socket socket = RawSockets.connect(port, 0)) {
            RawSockets.send(socket, "GET /api/v1/streaming/home HTTP/1.0\r\nAuthorization: Bearer " + alice.token() + "\r\n\r\n");
            Head head = head(socket.getInputStream());
            assertThat(head.status()).isEqualTo("HTTP/1.1 200 ");
            assertThat(head.headers()).containsEntry("content-type", "text/event-stream");
            assertThat(readUntil(socket.getInputStream(), "\n\n")).startsWith("event:unread\n");
        }
        Await.until("the stream to end", SOONER_THAN_A_HEARTBEAT, () -> streams.openStreams(alice.numericId()) == 0);
    }

    @Test
    void aClientThatKeepsSendingOnItsStreamIsCutOff() throws IOException {
        try (Socket socket = RawSockets.connect(port, 0)) {
            RawSockets.send(socket, "GET /api/v1/streaming/home HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + alice.token()
                    + "\r\n\r\n");
            InputStream in = socket.getInputStream();
            assertThat(head(in).status()).isEqualTo("HTTP/1.1 200 ");
            readUntil(in, "\n\n");
            assertThat(streams.openStreams(alice.numericId())).isOne();

            byte[] junk = new byte[8192];
            try {
                for (int i = 0; i < 16; i++) { // 128 KB, twice what a stream's client may send
                    socket.getOutputStream().write(junk);
                }
            } catch (SocketException reset) {
                // the server may have closed the connection before the last write
            }
            Await.until("the stream to be cut off", SOONER_THAN_A_HEARTBEAT, () -> streams.openStreams(alice.numericId()) == 0);
            RawSockets.awaitClosedByServer(in);
        }
    }

    @Test
    void headAnswersTheHeadersAndOpensNoStream() throws IOException {
        try (Socket socket = RawSockets.connect(port, 0)) {
            RawSockets.send(socket, "HEAD /api/v1/streaming/home HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + alice.token()
                    + "\r\n\r\n");
            Head head = head(socket.getInputStream());
            assertThat(head.status()).isEqualTo("HTTP/1.1 200 ");
            assertThat(head.headers()).containsEntry("content-type", "text/event-stream");
        }
        assertThat(streams.openStreams(alice.numericId())).isZero();
    }

    @Test
    void overHttp2TheStreamIsAnAsyncRequestWithTheSameEventsAndEndsAtItsMaximumDuration() {
        String url = "http://127.0.0.1:" + http2Port + "/api/v1/streaming/home";
        HomeStreams second = http2.getBean(HomeStreams.class);
        try (SseConnection stream = SseConnection.open(url, alice.token(), null, HttpClient.Version.HTTP_2)) {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(stream.version()).isEqualTo(HttpClient.Version.HTTP_2);
            stream.awaitNamed("unread");
            assertThat(second.openStreams(alice.numericId())).isOne();

            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
            assertThat(stream.awaitNamed("item").id()).isEqualTo(String.valueOf(id));

            stream.awaitEnd(); // max-duration=2s; the client would resume with Last-Event-ID
        }
        Await.until("the stream to end", SOONER_THAN_A_HEARTBEAT, () -> second.openStreams(alice.numericId()) == 0);
    }

    private record Head(String status, Map<String, String> headers) {
    }

    /** The status line (up to the reason, which HTTP/1.1 makes optional) and the headers, names in lower case. */
    private static Head head(InputStream in) throws IOException {
        String[] lines = readUntil(in, "\r\n\r\n").split("\r\n");
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.merge(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip(),
                    (a, b) -> a + ", " + b);
        }
        String status = lines[0];
        return new Head(status.substring(0, status.indexOf(' ', status.indexOf(' ') + 1) + 1), headers);
    }

    /** The bytes up to and including {@code end}, as text; fails if the connection ends first. */
    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        byte[] tail = end.getBytes(StandardCharsets.US_ASCII);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("the connection ended before " + end.replace("\n", "\\n") + " after " + read);
            }
            read.write(b);
            byte[] sofar = read.toByteArray();
            if (sofar.length >= tail.length
                    && java.util.Arrays.equals(sofar, sofar.length - tail.length, sofar.length, tail, 0, tail.length)) {
                return read.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
