package dev.tributary.api.stream;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.item.ItemViews;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.KeptCounts;
import dev.tributary.api.timeline.UnreadView;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stars;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Items announced to many streams are rendered for all of them together, and each person still
 * sees their own flags: what {@link ItemViews#of} gives that person alone, read, starred and
 * {@code also_in} alike, with tombstoned items left out and a pulled source's item only for
 * people whose timeline holds it.
 */
@ApiTest
class StreamRendersTest {

    @LocalServerPort int port;
    @Autowired StreamRenders renders;
    @Autowired ItemViews views;
    @Autowired Items items;
    @Autowired HomeFeed feed;
    @Autowired Stars stars;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired JsonMapper json;
    @Autowired KeptCounts keptCounts;
    @Autowired JdbcClient jdbc;
    private ApiClient api;
    private Deliveries deliveries;
    private TestUser alice;
    private TestUser bob;
    private TestUser carol;
    private TestUser dave;
    private long lead;
    private long other;
    private long gone;

    /**
     * Alice holds a story through two feeds (its {@code also_in}), Bob read it, Carol starred it,
     * Dave follows neither feed; a second item reached all three, a third was tombstoned.
     */
    @BeforeEach
    void fourReaders() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
        alice = api.newUser("render");
        bob = api.newUser("render");
        carol = api.newUser("render");
        dave = api.newUser("render");
        long english = deliveries.feed();
        long java = deliveries.feed();
        List.of(alice, bob, carol).forEach(reader -> deliveries.follow(reader, english));
        deliveries.follow(alice, java);
        String url = "https://blog.example.test/" + UUID.randomUUID();
        lead = deliveries.deliver(english, List.of(alice, bob, carol), story(url + "/")).getFirst();
        List<Long> ids = deliveries.deliver(english, List.of(alice, bob, carol), entry(MediaType.TEXT), entry(MediaType.TEXT));
        other = ids.get(0);
        gone = ids.get(1);
        deliveries.publish(java, story(url.replace("https:", "http:") + "?utm_source=rss"));
        Await.until("the copy joined alice's entry", () -> !feed.alsoIn(alice.numericId(), List.of(lead)).isEmpty());
        assertThat(feed.markRead(bob.numericId(), lead)).isTrue();
        assertThat(stars.star(carol.numericId(), lead)).isTrue();
        assertThat(publisher.tombstone(gone)).isTrue();
        // The retraction runs on a fan-out worker and moves its people's counts and stamps: it must be
        // over before a test takes a counts version, or it may move that version under the test.
        Await.until("the tombstoned item's retraction ran", () -> jdbc.sql("SELECT COUNT(*) FROM fanout_tasks WHERE item_id = ?")
                .param(gone).query(Long.class).single() == 0);
    }

    private static NewItem story(String url) {
        String guid = UUID.randomUUID().toString();
        return new NewItem(guid, "Title " + guid, "<p>Summary</p>", url, "author", MediaType.TEXT, List.of(), List.of(),
                Instant.now().minusSeconds(60));
    }

    /** The JSON the person's stream showed of these items when each stream read its own. */
    private Map<Long, String> alone(TestUser reader, long... ids) {
        List<Long> asked = java.util.Arrays.stream(ids).boxed().toList();
        return views.of(reader.numericId(), items.getAll(asked)).stream()
                .collect(java.util.stream.Collectors.toMap(view -> Long.parseLong(view.id()), json::writeValueAsString));
    }

    /** The JSON of the items a request was answered with, by id. */
    private static Map<Long, String> saw(StreamRenders.Request request) {
        Map<Long, String> saw = new java.util.HashMap<>();
        request.views().join().items().forEach((id, bytes) -> saw.put(id, new String(bytes, StandardCharsets.UTF_8)));
        return saw;
    }

    private JsonNode field(String itemJson, String name) {
        return json.readTree(itemJson).get(name);
    }

    private JsonNode counts(StreamRenders.Request request) {
        return json.readTree(request.views().join().counts());
    }

    @Test
    void countsAPollKeptUnderTheCurrentVersionAreSentNotReadAgainAndAChangeReadsThemAfresh() {
        long reader = alice.numericId();
        assertThat(api.get("/api/v1/unread", alice.token()).status()).as("a poll: the node learns her sources").isEqualTo(200);
        String version = keptCounts.versions(List.of(reader)).get(reader);
        assertThat(version).isNotNull();
        // What a poll kept under this version; marked so that a read of the counts could not give it.
        byte[] kept = "{\"total\":12345}".getBytes(StandardCharsets.UTF_8);
        keptCounts.keep(reader, version, kept, feed.unreadByFolder(reader));

        StreamRenders.Request before = new StreamRenders.Request(reader, Set.of(other), Set.of());
        renders.render(List.of(before));
        assertThat(counts(before).path("total").asLong()).as("the kept counts, not read again").isEqualTo(12345);

        assertThat(feed.markRead(reader, other)).isTrue();
        StreamRenders.Request after = new StreamRenders.Request(reader, Set.of(other), Set.of());
        renders.render(List.of(after));
        assertThat(json.readTree(after.views().join().counts())).as("the version moved: read afresh")
                .isEqualTo(json.readTree(json.writeValueAsBytes(UnreadView.of(feed.unreadByFolder(reader)))));
    }

    @Test
    void onePersonsFlagsNeverReachAnothersInOneBatch() {
        StreamRenders.Request forAlice = new StreamRenders.Request(alice.numericId(), Set.of(lead, other, gone), Set.of());
        StreamRenders.Request forBob = new StreamRenders.Request(bob.numericId(), Set.of(lead, gone), Set.of());
        StreamRenders.Request forCarol = new StreamRenders.Request(carol.numericId(), Set.of(lead), Set.of());
        StreamRenders.Request forDave = new StreamRenders.Request(dave.numericId(), Set.of(other), Set.of());

        renders.render(List.of(forAlice, forBob, forCarol, forDave));

        Map<Long, String> aliceSaw = saw(forAlice);
        assertThat(aliceSaw).isEqualTo(alone(alice, lead, other)).containsOnlyKeys(lead, other);
        assertThat(field(aliceSaw.get(lead), "also_in")).as("alice's copy through the second feed").hasSize(1);
        assertThat(field(aliceSaw.get(lead), "read").asBoolean()).isFalse();
        Map<Long, String> bobSaw = saw(forBob);
        assertThat(bobSaw).isEqualTo(alone(bob, lead)).containsOnlyKeys(lead);
        assertThat(field(bobSaw.get(lead), "read").asBoolean()).as("bob read it").isTrue();
        assertThat(field(bobSaw.get(lead), "starred").asBoolean()).isFalse();
        assertThat(field(bobSaw.get(lead), "also_in")).isEmpty();
        Map<Long, String> carolSaw = saw(forCarol);
        assertThat(carolSaw).isEqualTo(alone(carol, lead));
        assertThat(field(carolSaw.get(lead), "starred").asBoolean()).as("carol starred it").isTrue();
        assertThat(field(carolSaw.get(lead), "read").asBoolean()).isFalse();
        assertThat(saw(forDave)).isEqualTo(alone(dave, other));
        for (var request : List.of(forAlice, forBob, forCarol, forDave)) {
            assertThat(new String(request.views().join().counts(), StandardCharsets.UTF_8)).as("counts of user %d", request.userId())
                    .isEqualTo(json.writeValueAsString(UnreadView.of(feed.unreadByFolder(request.userId()))));
        }
        assertThat(counts(forBob).get("total").asInt()).as("bob read the story").isEqualTo(1);
        assertThat(counts(forAlice).get("total").asInt()).as("the story once, through either feed").isEqualTo(2);
    }

    @Test
    void anItemAnnouncedOnAPulledSourcesChannelReachesOnlyThoseWhoseTimelineHoldsIt() {
        StreamRenders.Request forBob = new StreamRenders.Request(bob.numericId(), Set.of(other), Set.of(other));
        StreamRenders.Request forDave = new StreamRenders.Request(dave.numericId(), Set.of(other), Set.of(other));

        renders.render(List.of(forBob, forDave));

        assertThat(saw(forBob)).isEqualTo(alone(bob, other));
        assertThat(saw(forDave)).as("dave's timeline does not hold it").isEmpty();
    }

    @Test
    void aBatchsSendersAreWokenFromAPlatformThreadSoTheyQueueWithTheRequestsBesideThem() throws Exception {
        StreamRenders.Request forBob = new StreamRenders.Request(bob.numericId(), Set.of(other), Set.of());
        // Registered before the batch completes, so it runs on the thread that completes it.
        CompletableFuture<Thread> wokenBy = forBob.views().thenApply(rendered -> Thread.currentThread());

        Thread renderer = Thread.ofVirtual().start(() -> renders.render(List.of(forBob)));
        renderer.join();

        assertThat(saw(forBob)).isEqualTo(alone(bob, other));
        assertThat(wokenBy.get(30, TimeUnit.SECONDS).isVirtual())
                .as("woken by a carrier, the senders would run before every request queued beside them").isFalse();
    }

    @Test
    void manyStreamsAskingAtOnceEachGetTheirOwn() throws Exception {
        List<Callable<Map<Long, String>>> asks = new ArrayList<>();
        List<Map<Long, String>> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            TestUser reader = List.of(alice, bob, carol, dave).get(i % 4);
            asks.add(() -> {
                Map<Long, String> saw = new java.util.HashMap<>();
                renders.render(reader.numericId(), Set.of(lead, other), Set.of()).items()
                        .forEach((id, bytes) -> saw.put(id, new String(bytes, StandardCharsets.UTF_8)));
                return saw;
            });
            expected.add(alone(reader, lead, other));
        }
        try (ExecutorService streams = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Map<Long, String>>> answers = streams.invokeAll(asks);
            for (int i = 0; i < answers.size(); i++) {
                assertThat(answers.get(i).get()).as("ask %d", i).isEqualTo(expected.get(i));
            }
        }
    }
}
