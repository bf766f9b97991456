package dev.tributary.api.stream;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.security.Revocations;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Credential;
import dev.tributary.api.web.Scope;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@ApiTest
class HomeStreamApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired HomeStreams streams;
    @Autowired Revocations revocations;
    @Autowired StringRedisTemplate redis;
    private ApiClient api;
    private Deliveries deliveries;
    private TestUser alice;
    private long feed;

    @Test
    void aStreamRegisteredAfterItsCredentialsRevocationWasHeardIsClosedAtOnce() {
        String revoked = Revocations.tokenKey("revoked-" + UUID.randomUUID());
        String other = Revocations.tokenKey("other-" + UUID.randomUUID());
        revocations.announce(revoked);
        Await.until("the revocation to be heard", () -> streams.revokedRecently(revoked));

        // As if authenticated just before the announcement and registered just after it was handled.
        streams.open(caller(revoked), "127.0.0.1");
        assertThat(streams.openStreams(alice.numericId())).isZero();

        streams.open(caller(other), "127.0.0.1");
        assertThat(streams.openStreams(alice.numericId())).as("another credential's stream stays").isOne();
        revocations.announce(other);
        Await.until("the stream of the revoked credential to close", () -> streams.openStreams(alice.numericId()) == 0);
    }

    private Caller caller(String revocationKey) {
        return new Caller(alice.numericId(), Set.of(Scope.READ), new Credential(Credential.Kind.PERSONAL_TOKEN, Set.of(revocationKey)));
    }

    @BeforeEach
    void aFollower() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
        alice = api.newUser("stream");
        feed = deliveries.feed();
        deliveries.follow(alice, feed);
    }

    @Test
    void aNewEntryArrivesAsAnItemEventThenTheCounts() {
        try (SseConnection stream = open(alice, null)) {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(json(stream.awaitNamed("unread")).path("total").asLong()).as("the counts at connect").isZero();

            long id = deliveries.publish(feed, entry(MediaType.IMAGE)).getFirst();

            SseConnection.Event item = stream.awaitNamed("item");
            assertThat(item.id()).isEqualTo(String.valueOf(id));
            JsonNode view = json(item);
            assertThat(view.path("id").asString()).isEqualTo(String.valueOf(id));
            assertThat(view.path("source").path("id").asString()).isEqualTo(String.valueOf(feed));
            assertThat(view.path("media_type").asString()).isEqualTo("image");
            assertThat(view.path("read").asBoolean()).isFalse();
            JsonNode counts = json(stream.awaitNamed("unread"));
            assertThat(counts.path("total").asLong()).isEqualTo(1);
            assertThat(counts.path("by_media").path("image").asLong()).isEqualTo(1);

            assertThat(api.post("/api/v1/items/" + id + "/read", alice.token(), null).status()).isEqualTo(204);
            assertThat(json(stream.awaitNamed("unread")).path("total").asLong()).isZero();
        }
    }

    @Test
    void theNodeRenewsTheListeningMarkOfAnOpenStreamSoItsAnnouncementsGoOnAfterTheMarkWasLost() {
        try (SseConnection stream = open(alice, null)) {
            stream.awaitNamed("unread");
            // As if Redis had lost the mark (a restart, an eviction): fan-out would announce nothing to alice.
            Set<String> hashes = redis.keys("tributary:unread:*" + alice.numericId() + "*");
            assertThat(hashes).as("the counter hash that carries the mark").hasSize(1);
            assertThat(redis.delete(hashes.iterator().next())).as("the hash gone, and the mark with it").isTrue();

            streams.renewListening();

            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
            assertThat(stream.awaitNamed("item").id()).isEqualTo(String.valueOf(id));
        }
    }

    @Test
    void aTombstoneArrivesAsADeleteEvent() {
        try (SseConnection stream = open(alice, null)) {
            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
            stream.await(event -> String.valueOf(id).equals(event.id()));

            publisher.tombstone(id);

            assertThat(stream.awaitNamed("delete").data()).isEqualTo(String.valueOf(id));
        }
    }

    @Test
    void lastEventIdReplaysWhatCameAfterItOldestFirst() {
        List<Long> ids = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT), entry(MediaType.TEXT), entry(MediaType.TEXT));

        try (SseConnection stream = open(alice, String.valueOf(ids.getFirst()))) {
            assertThat(stream.next().id()).isEqualTo(String.valueOf(ids.get(1)));
            assertThat(stream.next().id()).isEqualTo(String.valueOf(ids.get(2)));
            SseConnection.Event counts = stream.next();
            assertThat(counts.name()).isEqualTo("unread");
            assertThat(json(counts).path("total").asLong()).isEqualTo(3);

            long later = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
            assertThat(stream.awaitNamed("item").id()).as("then live").isEqualTo(String.valueOf(later));
        }
    }

    @Test
    void anotherPersonsEntriesNeverReachTheStream() {
        TestUser eve = api.newUser("eavesdrop");
        long hers = deliveries.feed();
        deliveries.follow(eve, hers);
        try (SseConnection stream = open(eve, null)) {
            stream.awaitNamed("unread");
            long alices = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();

            long own = deliveries.publish(hers, entry(MediaType.TEXT)).getFirst();

            // Her own entry was announced after alice's: had alice's reached her stream, it would come first.
            assertThat(stream.awaitNamed("item").id()).isEqualTo(String.valueOf(own)).isNotEqualTo(String.valueOf(alices));
        }
    }

    @Test
    void aMalformedLastEventIdIsIgnoredAndTheStreamStartsFromNow() {
        long before = deliveries.deliver(feed, List.of(alice), entry(MediaType.TEXT)).getFirst();
        for (String garbled : new String[] {"soon", "-1", "9".repeat(40), "12 34"}) {
            try (SseConnection stream = open(alice, garbled)) {
                // An error status here would end an EventSource for good.
                assertThat(stream.status()).as(garbled).isEqualTo(200);
                assertThat(json(stream.awaitNamed("unread")).path("total").asLong()).as("the counts at connect").isPositive();

                long after = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();

                assertThat(stream.awaitNamed("item").id()).as("nothing replayed from before").isEqualTo(String.valueOf(after))
                        .isNotEqualTo(String.valueOf(before));
            }
        }
    }

    @Test
    void aStreamWithoutATokenIsRefused() {
        ApiResponse refused = api.get("/api/v1/streaming/home", null);
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.contentType()).startsWith("application/problem+json");
    }

    private SseConnection open(TestUser user, String lastEventId) {
        return SseConnection.open(api.url("/api/v1/streaming/home"), user.token(), lastEventId);
    }

    private static JsonNode json(SseConnection.Event event) {
        return JSON.readTree(event.data());
    }
}
