package dev.tributary.api.hub;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.crawler.websub.HubSignature;
import dev.tributary.crawler.websub.HubSubscriptions;
import dev.tributary.crawler.websub.WebSubscription;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Stored;
import dev.tributary.storage.testing.Await;
import jakarta.servlet.Filter;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The hub over real HTTP: Tributary's own WebSub subscriber (the crawler's) subscribes to this
 * instance's export and is pushed a new post with no fetch of the export after the first; and
 * what a hostile or broken subscriber may try. Callbacks are on 127.0.0.1, the one address the
 * test allows the SSRF guard ({@code tributary.crawler.allow-private=127.0.0.1/32}); every other
 * loopback and private address stays refused. No background crawl runs, so nothing polls.
 */
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@Import(WebSubHubTest.ExportFetches.class)
class WebSubHubTest {

    private static final int PORT = freePort();
    private static final String ROOT = "http://127.0.0.1:" + PORT;
    private static final TestCallback CALLBACK = TestCallback.start();
    private static final AtomicInteger EXPORT_FETCHES = new AtomicInteger();
    private static final java.util.Set<String> COUNTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("server.port", () -> PORT);
        registry.add("server.address", () -> "127.0.0.1");
        registry.add("tributary.public-url", () -> ROOT);
        registry.add("tributary.crawler.allow-private", () -> "127.0.0.1/32");
        registry.add("tributary.crawler.concurrency", () -> "0");
        registry.add("tributary.crawler.connect-timeout", () -> "1s");
        registry.add("tributary.crawler.timeout", () -> "5s");
        registry.add("tributary.hub.max-per-person", () -> "5");
        registry.add("tributary.hub.max-per-callback-host", () -> "40");
        // Only notices wake checks here: a periodic check must not be what delivers.
        registry.add("tributary.hub.check-interval", () -> "1h");
    }

    /** Counts GETs of the exports the test names in {@link #COUNTED}. */
    @TestConfiguration
    static class ExportFetches {
        @Bean
        FilterRegistrationBean<Filter> exportFetchCounter() {
            FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
                if (COUNTED.contains(((HttpServletRequest) request).getRequestURI())) {
                    EXPORT_FETCHES.incrementAndGet();
                }
                chain.doFilter(request, response);
            });
            registration.addUrlPatterns("/feeds/*");
            return registration;
        }
    }

    @AfterAll
    static void stopCallback() {
        CALLBACK.close();
    }

    @Autowired FeedResolver resolver;
    @Autowired HubSubscriptions subscriberSide;
    @Autowired Items items;
    @Autowired JdbcClient jdbc;
    @Autowired HubSweeper sweeper;

    private final ApiClient api = new ApiClient(PORT);

    @Test
    void tributarysOwnSubscriberIsPushedANewPostWithoutFetchingTheExportAgain() {
        TestUser alice = api.newUser("pushed");
        post(alice, "Before anyone subscribed");
        String topic = ROOT + "/feeds/users/" + alice.username() + ".atom";
        COUNTED.add("/feeds/users/" + alice.username() + ".atom");

        long source = resolver.resolve(topic).id();
        Await.until("the hub to verify the subscriber", () -> subscriberSide.find(source)
                .map(s -> s.state() == WebSubscription.State.VERIFIED).orElse(false));
        Await.until("the hub to record the subscription", () -> subscriptions("user:" + alice.numericId() + ":atom") == 1);
        assertThat(EXPORT_FETCHES.get()).as("the subscriber's first fetch").isEqualTo(1);

        post(alice, "Pushed, not polled");

        Await.until("the post to be pushed to the subscriber", () -> items.ofSource(source, null, null, 10).stream()
                .map(Stored::body).map(Item::summary).anyMatch(s -> s != null && s.contains("Pushed, not polled")));
        assertThat(EXPORT_FETCHES.get()).as("fetches of the export: the subscription's first only").isEqualTo(1);
    }

    @Test
    void theExportsNameTheHubAndThemselves() {
        TestUser bea = api.newUser("named");
        ApiResponse atom = api.get("/feeds/users/" + bea.username() + ".atom", null);
        ApiResponse rss = api.get("/feeds/users/" + bea.username() + ".rss", null);

        assertThat(atom.headers("Link")).contains("<" + ROOT + "/websub/hub>; rel=\"hub\"",
                "<" + ROOT + "/feeds/users/" + bea.username() + ".atom>; rel=\"self\"");
        assertThat(atom.body()).contains("<link rel=\"hub\" href=\"" + ROOT + "/websub/hub\"");
        assertThat(rss.body()).contains("<atom:link href=\"" + ROOT + "/websub/hub\" rel=\"hub\"");
        assertThat(rss.headers("Link")).contains("<" + ROOT + "/feeds/users/" + bea.username() + ".rss>; rel=\"self\"");
    }

    @Test
    void aSubscriberWithASecretGetsSignedContentWithLinks() throws Exception {
        TestUser cleo = api.newUser("signed");
        String topic = ROOT + "/feeds/users/" + cleo.username() + ".rss";
        String path = "/echo/signed-" + cleo.username();
        String secret = "s".repeat(199);

        assertThat(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", CALLBACK.url(path),
                "hub.secret", secret)).status()).isEqualTo(202);
        Await.until("the subscription", () -> subscriptions("user:" + cleo.numericId() + ":rss") == 1);
        post(cleo, "Signed news");

        TestCallback.Call delivery = CALLBACK.deliveries(path).poll(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(delivery).as("a delivery").isNotNull();
        assertThat(new String(delivery.body(), StandardCharsets.UTF_8)).contains("Signed news");
        assertThat(delivery.header("Content-Type")).startsWith("application/rss+xml");
        assertThat(HubSignature.valid(delivery.header("X-Hub-Signature"), delivery.body(), secret)).isTrue();
        assertThat(delivery.header("X-Hub-Signature")).startsWith("sha256=");
        assertThat(delivery.header("Link")).contains("<" + ROOT + "/websub/hub>; rel=\"hub\"", "<" + topic + ">; rel=\"self\"");
    }

    @Test
    void aHomeFeedIsATopicForWhoeverHoldsItsToken() throws Exception {
        TestUser dan = api.newUser("home");
        String token = api.post("/api/v1/me/feed_token", dan.token(), null).json().path("feed_token").asString();
        String topic = ROOT + "/feeds/home.atom?token=" + token;
        String path = "/echo/home-" + dan.username();

        assertThat(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", CALLBACK.url(path))).status())
                .isEqualTo(202);
        Await.until("the subscription", () -> subscriptions("home:" + dan.numericId() + ":atom") == 1);
        post(dan, "Into my own home");

        TestCallback.Call delivery = CALLBACK.deliveries(path).poll(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(delivery).isNotNull();
        assertThat(new String(delivery.body(), StandardCharsets.UTF_8)).contains("Into my own home");
        assertThat(delivery.header("X-Hub-Signature")).as("no secret, no signature").isNull();
        assertThat(delivery.header("Link")).as("the self link is the url subscribed to").contains("<" + topic + ">; rel=\"self\"");
        // The token is kept only sealed, as accounts keep only its hash: a copy of the database cannot read it.
        for (String table : List.of("websub_hub_subscriptions", "websub_hub_topics")) {
            assertThat(jdbc.sql("SELECT topic_url FROM " + table + " WHERE topic_key = ?").param("home:" + dan.numericId() + ":atom")
                    .query(String.class).list()).isNotEmpty().allSatisfy(stored -> assertThat(stored).doesNotContain(token)
                            .startsWith("v1."));
        }

        // A new token ends the old topic: its subscriber is told, and nothing more is sent.
        api.post("/api/v1/me/feed_token", dan.token(), null);
        post(dan, "After the token changed");
        Await.until("the denial", () -> CALLBACK.verifications(path).stream()
                .anyMatch(c -> "denied".equals(c.query().get("hub.mode"))));
        assertThat(subscriptions("home:" + dan.numericId() + ":atom")).isZero();
    }

    @Test
    void anOpenGroupsFeedIsATopicUntilTheGroupClosesAndNothingClosedIsSentAfter() throws Exception {
        TestUser owner = api.newUser("gowner");
        TestUser member = api.newUser("gmember");
        String id = api.newGroup(owner, "Group of " + owner.username(), true);
        assertThat(api.post("/api/v1/groups/" + id + "/members", member.token(), Map.of("username", member.username())).status())
                .isEqualTo(201);
        String topic = ROOT + "/feeds/groups/" + id + ".atom";
        String key = "group:" + id + ":atom";
        String path = "/echo/group-" + id;

        assertThat(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", CALLBACK.url(path))).status())
                .isEqualTo(202);
        Await.until("the subscription", () -> subscriptions(key) == 1);
        api.groupPost(member, id, "News from a member");

        // No periodic check runs here (check-interval 1h): the post's notice is what wakes the hub.
        TestCallback.Call delivery = CALLBACK.deliveries(path).poll(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(delivery).as("a delivery").isNotNull();
        assertThat(new String(delivery.body(), StandardCharsets.UTF_8)).contains("News from a member", "urn:tributary:feed:group:" + id);
        assertThat(delivery.header("Content-Type")).startsWith("application/atom+xml");
        assertThat(delivery.header("Link")).contains("<" + ROOT + "/websub/hub>; rel=\"hub\"", "<" + topic + ">; rel=\"self\"");

        // Closed: the subscription ends at once, its subscriber told, with no post needed to notice.
        api.setGroupOpen(owner, id, false);
        Await.until("the denial", () -> CALLBACK.verifications(path).stream().anyMatch(c -> "denied".equals(c.query().get("hub.mode"))));
        assertThat(subscriptions(key)).isZero();
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", CALLBACK.url(path))), 422);
        api.groupPost(member, id, "Said while closed");

        // Open again: a new subscriber is served, and the one whose subscription ended hears nothing.
        api.setGroupOpen(owner, id, true);
        String again = "/echo/group-again-" + id;
        assertThat(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", CALLBACK.url(again))).status())
                .isEqualTo(202);
        Await.until("the new subscription", () -> subscriptions(key) == 1);
        api.groupPost(owner, id, "Open again");
        TestCallback.Call later = CALLBACK.deliveries(again).poll(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(later).as("a delivery to the new subscriber").isNotNull();
        assertThat(new String(later.body(), StandardCharsets.UTF_8)).contains("Open again");
        assertThat(CALLBACK.deliveries(path)).as("nothing more to the ended subscription").isEmpty();
    }

    @Test
    void aClosedOrUnknownGroupIsNoTopic() {
        TestUser owner = api.newUser("gtopic");
        String closed = api.newGroup(owner, "Group of " + owner.username(), false);
        String open = api.newGroup(owner, "Group of " + owner.username(), true);
        String callback = CALLBACK.url("/echo/gtopic-" + owner.username());
        for (String topic : List.of(ROOT + "/feeds/groups/" + closed + ".atom", ROOT + "/feeds/groups/" + closed + ".rss",
                ROOT + "/feeds/groups/" + Long.MAX_VALUE + ".atom", ROOT + "/feeds/groups/0" + open + ".atom",
                ROOT + "/feeds/groups/" + open + ".atom?x=1", ROOT + "/feeds/groups/" + open + ".json",
                ROOT + "/feeds/groups/99999999999999999999.atom")) {
            ApiResponse answer = hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", callback));
            assertProblem(answer, 422);
            assertThat(answer.body()).as(topic).contains("topic_not_served");
        }
        assertThat(CALLBACK.verifications("/echo/gtopic-" + owner.username())).isEmpty();
        assertThat(hub(Map.of("hub.mode", "subscribe", "hub.topic", ROOT + "/feeds/groups/" + open + ".rss", "hub.callback", callback))
                .status()).as("the open one is a topic").isEqualTo(202);
    }

    @Test
    void badRequestsAreRefusedWithProblems() {
        TestUser eve = api.newUser("bad");
        String topic = ROOT + "/feeds/users/" + eve.username() + ".atom";
        String callback = CALLBACK.url("/echo/bad");

        assertProblem(hub(Map.of("hub.topic", topic, "hub.callback", callback)), 400);
        assertProblem(hub(Map.of("hub.mode", "publish", "hub.topic", topic, "hub.callback", callback)), 400);
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.callback", callback)), 400);
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic)), 400);
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", "ftp://127.0.0.1/x")), 400);
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", callback + "#f")), 400);
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", callback,
                "hub.lease_seconds", "soon")), 400);
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", callback,
                "hub.lease_seconds", "-5")), 400);
        // WebSub: a secret MUST be less than 200 bytes (199 two-byte characters are 398).
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", callback,
                "hub.secret", "s".repeat(200))), 400);
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", callback,
                "hub.secret", "é".repeat(100))), 400);
        assertProblem(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", callback,
                "hub.secret", "x".repeat(100_000))), 400);
        assertThat(CALLBACK.verifications("/echo/bad")).as("nothing refused is verified").isEmpty();
    }

    @Test
    void topicsThatAreNotThisDeploymentsExportsAreRefused() {
        TestUser fay = api.newUser("notours");
        String callback = CALLBACK.url("/echo/notours");
        List<String> foreign = List.of("https://example.org/feed.xml", "http://evil.example/feeds/users/" + fay.username() + ".atom",
                ROOT + "/feeds/users/nobody_here_at_all.atom", ROOT + "/feeds/users/" + fay.username() + ".json",
                ROOT + "/feeds/users/" + fay.username() + ".atom?x=1", ROOT + "/feeds/home.atom",
                ROOT + "/feeds/home.atom?token=not-a-live-token", ROOT + "/api/v1/me", "not a url at all",
                ROOT + "/feeds/users/" + fay.username() + ".atom#frag");

        for (String topic : foreign) {
            ApiResponse answer = hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", callback));
            assertProblem(answer, 422);
            assertThat(answer.body()).contains("topic_not_served").doesNotContain("token=");
        }
        assertThat(CALLBACK.verifications("/echo/notours")).isEmpty();
    }

    @Test
    void callbacksAtPrivateOrLoopbackAddressesAreRefused() {
        TestUser gus = api.newUser("ssrf");
        String topic = ROOT + "/feeds/users/" + gus.username() + ".atom";
        for (String callback : List.of("http://10.0.0.1/cb", "http://127.0.0.2:" + PORT + "/cb", "http://[::1]:" + PORT + "/cb",
                "http://169.254.169.254/latest/meta-data/", "http://192.168.1.1/cb", "http://0.0.0.0:" + PORT + "/cb")) {
            ApiResponse answer = hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", callback));
            assertThat(answer.status()).as(callback).isEqualTo(422);
            assertThat(answer.body()).contains("callback_not_public");
        }
        assertThat(subscriptions("user:" + gus.numericId() + ":atom")).isZero();
    }

    @Test
    void leasesAreBoundedAndExpiredSubscriptionsDropped() throws Exception {
        TestUser hal = api.newUser("lease");
        String topic = ROOT + "/feeds/users/" + hal.username() + ".atom";
        Map<String, String> asked = Map.of("/echo/lease-short-" + hal.username(), "1", "/echo/lease-long-" + hal.username(),
                "999999999", "/echo/lease-none-" + hal.username(), "");
        asked.forEach((path, lease) -> assertThat(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic,
                "hub.callback", CALLBACK.url(path), "hub.lease_seconds", lease)).status()).isEqualTo(202));
        Await.until("three subscriptions", () -> subscriptions("user:" + hal.numericId() + ":atom") == 3);

        assertThat(leaseAsked("/echo/lease-short-" + hal.username())).as("the minimum, 1h").isEqualTo("3600");
        assertThat(leaseAsked("/echo/lease-long-" + hal.username())).as("the maximum, 30d").isEqualTo("2592000");
        assertThat(leaseAsked("/echo/lease-none-" + hal.username())).as("the default, 10d").isEqualTo("864000");

        jdbc.sql("UPDATE websub_hub_subscriptions SET lease_until = ? WHERE topic_key = ? AND callback LIKE ?")
                .params(Timestamp.from(Instant.now().minusSeconds(1)), "user:" + hal.numericId() + ":atom", "%lease-short%")
                .update();
        sweeper.sweep();
        assertThat(subscriptions("user:" + hal.numericId() + ":atom")).as("the expired one dropped").isEqualTo(2);

        post(hal, "After the lease");
        assertThat(CALLBACK.deliveries("/echo/lease-long-" + hal.username()).poll(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isNotNull();
        assertThat(CALLBACK.deliveries("/echo/lease-none-" + hal.username()).poll(Await.PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isNotNull();
        assertThat(CALLBACK.deliveries("/echo/lease-short-" + hal.username())).as("nothing to the expired one").isEmpty();
    }

    @Test
    void aWrongEchoOrAHangingCallbackMakesNoSubscription() {
        TestUser ida = api.newUser("verify");
        String topic = ROOT + "/feeds/users/" + ida.username() + ".atom";
        String wrong = "/wrong/" + ida.username();
        String hang = "/hang/" + ida.username();

        assertThat(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", CALLBACK.url(wrong))).status())
                .isEqualTo(202);
        assertThat(hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", CALLBACK.url(hang))).status())
                .isEqualTo(202);

        Await.until("both verifications to end", () -> intents(ida.numericId()) == 0);
        assertThat(CALLBACK.verifications(wrong)).hasSize(1);
        assertThat(CALLBACK.verifications(hang)).hasSize(1);
        assertThat(subscriptions("user:" + ida.numericId() + ":atom")).isZero();
    }

    @Test
    void unsubscribingIsVerifiedToo() throws Exception {
        TestUser jo = api.newUser("unsub");
        String topic = ROOT + "/feeds/users/" + jo.username() + ".atom";
        String path = "/echo/unsub-" + jo.username();
        hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback", CALLBACK.url(path)));
        Await.until("the subscription", () -> subscriptions("user:" + jo.numericId() + ":atom") == 1);

        assertThat(hub(Map.of("hub.mode", "unsubscribe", "hub.topic", topic, "hub.callback", CALLBACK.url(path))).status())
                .isEqualTo(202);

        Await.until("the unsubscription", () -> subscriptions("user:" + jo.numericId() + ":atom") == 0);
        assertThat(CALLBACK.verifications(path).getLast().query()).containsEntry("hub.mode", "unsubscribe");
    }

    @Test
    void aThousandSubscriptionsToOnesHomeFeedAreCapped() {
        TestUser kim = api.newUser("flood");
        String token = api.post("/api/v1/me/feed_token", kim.token(), null).json().path("feed_token").asString();
        String topic = ROOT + "/feeds/home.rss?token=" + token;

        Map<Integer, Long> statuses = java.util.stream.IntStream.range(0, 1_000).mapToObj(i -> hub(Map.of("hub.mode", "subscribe",
                        "hub.topic", topic, "hub.callback", CALLBACK.url("/echo/flood-" + kim.username() + "?n=" + i))).status())
                .collect(Collectors.groupingBy(s -> s, Collectors.counting()));

        assertThat(statuses).containsOnlyKeys(202, 422).containsEntry(202, 5L);
        Await.until("the accepted ones verified", () -> intents(kim.numericId()) == 0);
        assertThat(subscriptions("home:" + kim.numericId() + ":rss")).isEqualTo(5);
    }

    @Test
    void publicFeedsCapTheSubscriptionsOfOneCallbackHost() {
        TestUser lou = api.newUser("hostcap");
        String topic = ROOT + "/feeds/users/" + lou.username() + ".atom";
        int already = jdbc.sql("SELECT COUNT(*) FROM websub_hub_subscriptions WHERE callback_host = '127.0.0.1'"
                + " AND topic_key NOT LIKE 'home:%'").query(Integer.class).single()
                + jdbc.sql("SELECT COUNT(*) FROM websub_hub_intents WHERE callback_host = '127.0.0.1' AND topic_key NOT LIKE 'home:%'")
                        .query(Integer.class).single();
        int accepted = 0;
        for (int i = 0; i < 100; i++) {
            if (hub(Map.of("hub.mode", "subscribe", "hub.topic", topic, "hub.callback",
                    CALLBACK.url("/echo/hostcap-" + lou.username() + "/" + i))).status() == 202) {
                accepted++;
            }
        }
        assertThat(accepted).isEqualTo(Math.max(0, 40 - already));
    }

    private String leaseAsked(String path) {
        return CALLBACK.verifications(path).getFirst().query().get("hub.lease_seconds");
    }

    private int subscriptions(String topicKey) {
        return jdbc.sql("SELECT COUNT(*) FROM websub_hub_subscriptions WHERE topic_key = ?").param(topicKey)
                .query(Integer.class).single();
    }

    private int intents(long ownerId) {
        return jdbc.sql("SELECT COUNT(*) FROM websub_hub_intents WHERE owner_id = ?").param(ownerId).query(Integer.class).single();
    }

    private void post(TestUser user, String text) {
        ApiResponse posted = api.post("/api/v1/posts", user.token(), Map.of("text", text));
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
    }

    private ApiResponse hub(Map<String, String> form) {
        String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return api.send(api.builder("/websub/hub", null).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static void assertProblem(ApiResponse answer, int status) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.contentType()).startsWith("application/problem+json");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
