package dev.tributary.api.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A client that opens its live stream and stops reading (a hostile one, or one whose network
 * died without a reset) holds only its own stream's sender, for at most the write wait (a
 * heartbeat's interval, never under 10 s: here, on an instance with one-second heartbeats, 10 s);
 * then its connection is closed, while another person's stream on the same node goes on.
 */
@ApiTest
class StalledClientApiTest {

    /** Megabytes of events: more than the client's tiny receive window and the server's largest send buffer (4 MB here) hold. */
    private static final int ENTRIES = 200;
    private static final int SUMMARY_CHARS = 32 * 1024;
    /** The write wait (10 s) and what the stalled sender may be doing around it, with room for a busy machine. */
    private static final Duration WRITE_WAIT_AND_MORE = Duration.ofSeconds(60);

    private static ConfigurableApplicationContext node;
    private static int nodePort;

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;

    @BeforeAll
    static void aNodeWithShortHeartbeats() {
        node = new SpringApplicationBuilder(TributaryApplication.class)
                .run("--server.port=0", "--server.address=127.0.0.1", "--tributary.roles=api",
                        "--tributary.api.stream.heartbeat=1s");
        nodePort = Integer.parseInt(node.getEnvironment().getRequiredProperty("local.server.port"));
    }

    @AfterAll
    static void stopNode() {
        node.close();
    }

    @Test
    void aClientThatStopsReadingLosesItsStreamAfterTheWriteWaitWhileOthersGoOn() throws IOException {
        ApiClient api = new ApiClient(port);
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        HomeStreams streams = node.getBean(HomeStreams.class);
        TestUser mallory = api.newUser("stall");
        TestUser bob = api.newUser("reader");
        long busyFeed = deliveries.feed();
        long quietFeed = deliveries.feed();
        deliveries.follow(mallory, busyFeed);
        deliveries.follow(bob, quietFeed);

        try (Socket stalled = RawSockets.connect(nodePort, 4096);
                SseConnection reading = SseConnection.open("http://127.0.0.1:" + nodePort + "/api/v1/streaming/home", bob.token(), null)) {
            RawSockets.send(stalled, "GET /api/v1/streaming/home HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + mallory.token() + "\r\n\r\n");
            InputStream in = stalled.getInputStream();
            assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 200");
            reading.awaitNamed("unread");
            Await.until("both streams open", Duration.ofSeconds(10),
                    () -> streams.openStreams(mallory.numericId()) == 1 && streams.openStreams(bob.numericId()) == 1);

            // From here on the stalled client reads nothing: ~6.5 MB of item events pile up against it.
            List<Long> flood = deliveries.publish(busyFeed, bigEntries());
            assertThat(flood).hasSize(ENTRIES);

            long news = deliveries.publish(quietFeed, Deliveries.entry(MediaType.TEXT)).getFirst();
            assertThat(reading.awaitNamed("item").id()).as("the other stream's item, sent while the stalled one waits")
                    .isEqualTo(String.valueOf(news));

            Await.until("the stalled client's stream to end", WRITE_WAIT_AND_MORE, () -> streams.openStreams(mallory.numericId()) == 0);
            RawSockets.awaitClosedByServer(in);
            assertThat(streams.openStreams(bob.numericId())).as("the reading client's stream still open").isOne();
            long later = deliveries.publish(quietFeed, Deliveries.entry(MediaType.TEXT)).getFirst();
            assertThat(reading.awaitNamed("item").id()).isEqualTo(String.valueOf(later));
        }
    }

    private static NewItem[] bigEntries() {
        String summary = "<p>" + "lorem ipsum ".repeat(SUMMARY_CHARS / 12) + "</p>";
        Instant published = Instant.now().minus(Duration.ofHours(1));
        return IntStream.range(0, ENTRIES).mapToObj(i -> {
            String guid = UUID.randomUUID().toString();
            return new NewItem(guid, "Flood " + i, summary, "https://example.test/" + guid, "author", MediaType.TEXT,
                    List.of(), List.of(), published.plusSeconds(i));
        }).toArray(NewItem[]::new);
    }
}
