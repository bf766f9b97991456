package dev.tributary.api.stream;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.BrowserSession;
import dev.tributary.api.testing.OAuthFlow;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.ClusterCommandExecutor.ClusterCommandCallback;
import org.springframework.data.redis.connection.lettuce.LettuceClusterConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import tools.jackson.databind.JsonNode;

/**
 * Streams served by a second app instance (sharing this JVM's database and Redis) with a short
 * heartbeat and two streams per person; it runs no fan-out, so what its streams show was
 * announced by the first instance's workers. Revocations made through the first instance close
 * the streams the second holds.
 */
@ApiTest
class StreamAcrossInstancesTest {

    private static final DefaultRedisScript<Long> NUMSUB =
            new DefaultRedisScript<>("return redis.call('PUBSUB', 'NUMSUB', KEYS[1])[2]", Long.class);

    private static ConfigurableApplicationContext second;
    private static ApiClient secondApi;

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired StringRedisTemplate redis;
    private ApiClient api;
    private Deliveries deliveries;

    @BeforeAll
    static void secondInstance() {
        // Arguments, not default properties: those would lose to application.yaml's values.
        second = new SpringApplicationBuilder(TributaryApplication.class)
                .run("--server.port=0", "--server.address=127.0.0.1", "--tributary.roles=api",
                        "--tributary.api.stream.heartbeat=200ms", "--tributary.api.stream.per-person=2");
        secondApi = new ApiClient(Integer.parseInt(second.getEnvironment().getRequiredProperty("local.server.port")));
    }

    @AfterAll
    static void stopSecond() {
        second.close();
    }

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    @Test
    void anEntryPublishedOnOneInstanceReachesAStreamOnAnother() {
        TestUser alice = api.newUser("across");
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        try (SseConnection stream = open(alice)) {
            stream.awaitNamed("unread");

            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();

            assertThat(stream.awaitNamed("item").id()).isEqualTo(String.valueOf(id));
        }
    }

    @Test
    void anIdleStreamSendsHeartbeats() {
        TestUser bob = api.newUser("beat");
        try (SseConnection stream = open(bob)) {
            assertThat(stream.awaitNamed(":comment").data()).isEqualTo("heartbeat");
            assertThat(stream.awaitNamed(":comment").data()).isEqualTo("heartbeat");
        }
    }

    @Test
    void aThirdStreamClosesTheOldestAndAGoneClientLeavesNoSubscription() {
        TestUser carol = api.newUser("many");
        long feed = deliveries.feed();
        deliveries.follow(carol, feed);
        HomeStreams streams = second.getBean(HomeStreams.class);
        try (SseConnection oldest = open(carol); SseConnection middle = open(carol); SseConnection newest = open(carol)) {
            oldest.awaitEnd();
            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
            assertThat(middle.awaitNamed("item").id()).isEqualTo(String.valueOf(id));
            assertThat(newest.awaitNamed("item").id()).isEqualTo(String.valueOf(id));
            assertThat(subscribers(carol)).isEqualTo(1);
        }
        // The clients went away without a word: the next heartbeat finds out and lets go of the channel.
        Await.until("the channel to be let go", () -> subscribers(carol) == 0);
        Await.until("no open streams", () -> streams.openStreams() == 0);
    }

    @Test
    void revokingAPersonalTokenClosesItsStreamOnEveryNodeAndNoOther() {
        TestUser dana = api.newUser("revoke");
        long feed = deliveries.feed();
        deliveries.follow(dana, feed);
        String doomed = api.createToken(dana.username(), dana.password(), "doomed", "read");
        try (SseConnection revoked = open(doomed); SseConnection kept = open(dana.token())) {
            revoked.awaitNamed("unread");
            kept.awaitNamed("unread");

            assertThat(api.delete("/api/v1/tokens/" + tokenId(dana, "doomed"), dana.token()).status()).isEqualTo(204);

            revoked.awaitEnd();
            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
            assertThat(kept.awaitNamed("item").id()).as("a stream of another token stays").isEqualTo(String.valueOf(id));
        }
    }

    @Test
    void withdrawingAnAppClosesTheStreamsItOpenedOnEveryNode() {
        TestUser erin = api.newUser("withdraw");
        long feed = deliveries.feed();
        deliveries.follow(erin, feed);
        OAuthFlow flow = new OAuthFlow(port);
        OAuthFlow.App app = flow.registerApp("client_secret_basic", "read");
        OAuthFlow.Tokens tokens = flow.authorize(erin, app, "read");
        try (SseConnection appStream = openHere(tokens.accessToken()); SseConnection own = open(erin.token())) {
            appStream.awaitNamed("unread");
            own.awaitNamed("unread");

            assertThat(api.delete("/api/v1/authorizations/" + app.clientId(), erin.token()).status()).isEqualTo(204);

            appStream.awaitEnd();
            long id = deliveries.publish(feed, entry(MediaType.TEXT)).getFirst();
            assertThat(own.awaitNamed("item").id()).isEqualTo(String.valueOf(id));
        }
        assertThat(api.get("/api/v1/streaming/home", tokens.accessToken()).status()).isEqualTo(401);
    }

    @Test
    void revokingAnAppsAccessTokenClosesItsStream() {
        TestUser gus = api.newUser("revokejwt");
        OAuthFlow flow = new OAuthFlow(port);
        OAuthFlow.App app = flow.registerApp("client_secret_basic", "read");
        OAuthFlow.Tokens tokens = flow.authorize(gus, app, "read");
        try (SseConnection appStream = openHere(tokens.accessToken())) {
            appStream.awaitNamed("unread");

            assertThat(flow.revoke(app, tokens.accessToken()).status()).isEqualTo(200);

            appStream.awaitEnd();
        }
    }

    @Test
    void signingOutClosesTheSessionsStreamsOnEveryNode() {
        TestUser fay = api.newUser("signout");
        BrowserSession browser = new BrowserSession(port);
        assertThat(OAuthFlow.isRedirectTo(browser.signIn(fay.username(), fay.password()), "/")).isTrue();
        try (SseConnection session = openWithSession(browser); SseConnection token = open(fay.token())) {
            session.awaitNamed("unread");
            token.awaitNamed("unread");

            ApiResponse signOut = browser.postForm("/logout", List.of(Map.entry("_csrf", browser.csrfToken())));
            assertThat(signOut.status()).as(signOut.toString()).isEqualTo(302);

            session.awaitEnd();
            assertThat(token.awaitNamed(":comment").data()).as("the token's stream goes on").isEqualTo("heartbeat");
        }
    }

    @Test
    void changingThePasswordClosesTheStreamsOfTheOtherSessions() {
        TestUser hal = api.newUser("pwstream");
        BrowserSession browser = new BrowserSession(port);
        assertThat(OAuthFlow.isRedirectTo(browser.signIn(hal.username(), hal.password()), "/")).isTrue();
        try (SseConnection session = openWithSession(browser)) {
            session.awaitNamed("unread");

            ApiResponse changed = api.post("/api/v1/me/password", hal.token(),
                    Map.of("current_password", hal.password(), "new_password", "a-new-password"));
            assertThat(changed.status()).as(changed.toString()).isEqualTo(204);

            session.awaitEnd();
        }
    }

    private SseConnection open(TestUser user) {
        return open(user.token());
    }

    private SseConnection open(String token) {
        SseConnection stream = SseConnection.open(secondApi.url("/api/v1/streaming/home"), token, null);
        assertThat(stream.status()).isEqualTo(200);
        return stream;
    }

    /**
     * A stream on the first instance: an access token names the issuer it was asked from (the
     * instance's own address here, as no issuer is configured), so it is good on that one only.
     */
    private SseConnection openHere(String token) {
        SseConnection stream = SseConnection.open(api.url("/api/v1/streaming/home"), token, null);
        assertThat(stream.status()).isEqualTo(200);
        return stream;
    }

    /** A stream the browser's session opens on the second instance (sessions live in the shared Redis). */
    private SseConnection openWithSession(BrowserSession browser) {
        SseConnection stream = SseConnection.openWith(secondApi.url("/api/v1/streaming/home"), null,
                "Cookie", "TRIBUTARY_SESSION=" + browser.cookie("TRIBUTARY_SESSION"));
        assertThat(stream.status()).isEqualTo(200);
        return stream;
    }

    private String tokenId(TestUser user, String name) {
        for (JsonNode token : api.get("/api/v1/tokens", user.token()).json()) {
            if (name.equals(token.path("name").asString())) {
                return token.path("id").asString();
            }
        }
        throw new AssertionError("no token named " + name);
    }

    /**
     * How many Redis connections listen to the person's channel (both instances share the one
     * Redis). PUBSUB NUMSUB counts the asked node's subscribers only: on a cluster, every node's.
     */
    private long subscribers(TestUser user) {
        String channel = InboxEvent.channel(user.numericId());
        if (redis.getConnectionFactory() instanceof LettuceConnectionFactory factory && factory.isClusterAware()) {
            byte[] raw = channel.getBytes(StandardCharsets.UTF_8);
            try (LettuceClusterConnection cluster = (LettuceClusterConnection) factory.getClusterConnection()) {
                return cluster.getClusterCommandExecutor()
                        .executeCommandOnAllNodes((ClusterCommandCallback<RedisClusterCommands<byte[], byte[]>, Long>) node ->
                                node.pubsubNumsub(raw).values().stream().mapToLong(Long::longValue).sum())
                        .resultsAsList().stream().mapToLong(Long::longValue).sum();
            }
        }
        Long single = redis.execute(NUMSUB, List.of(channel));
        return single == null ? 0 : single;
    }
}
