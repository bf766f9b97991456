package dev.tributary.api.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.TributaryApplication;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.token.PersonalTokens;
import dev.tributary.crawler.FeedResolver;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.Subscriptions;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue 17: nothing capped what one person could hold, and a count checked outside the inserting
 * transaction lets parallel requests all pass it. Small limits here so each is reached in a few
 * requests; the parallel tests fire many more than the limit at once and count what was stored.
 */
@SpringBootTest(classes = TributaryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.address=127.0.0.1", "tributary.crawler.allow-private=127.0.0.0/8",
                "tributary.limits.subscriptions=6", "tributary.limits.attached-feeds=2", "tributary.limits.groups-owned=2",
                "tributary.limits.memberships=3", "tributary.limits.tokens=3", "tributary.limits.posts-per-minute=3",
                "tributary.limits.comments-per-minute=2"})
class LimitsApiTest {

    private static final int PARALLEL = 16;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(PARALLEL);

    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    @LocalServerPort int port;
    @Autowired Subscriptions subscriptions;
    @Autowired Groups groups;
    @Autowired PersonalTokens tokens;
    @Autowired FeedResolver feeds;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    @Test
    void parallelSubscriptionsStopExactlyAtTheLimit() throws Exception {
        TestUser alice = api.newUser("lsub");
        List<TestUser> people = IntStream.range(0, PARALLEL).mapToObj(i -> api.newUser("lsubp")).toList();
        long before = subscriptions.count(alice.numericId());

        List<ApiResponse> answers = parallel(people.stream().<Callable<ApiResponse>>map(person ->
                () -> api.post("/api/v1/subscriptions", alice.token(), Map.of("user", person.username()))).toList());

        List<Integer> statuses = answers.stream().map(ApiResponse::status).toList();
        assertThat(statuses).as(answers.toString()).containsOnly(201, 422);
        assertThat(statuses.stream().filter(s -> s == 201).count()).isEqualTo(6 - before);
        assertThat(subscriptions.count(alice.numericId())).isEqualTo(6);
        ApiResponse refused = answers.stream().filter(a -> a.status() == 422).findFirst().orElseThrow();
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().path("reason").asString()).isEqualTo("too_many_subscriptions");
        assertThat(refused.json().path("limit").asInt()).isEqualTo(6);
    }

    @Test
    void anOpmlImportStopsAtTheLimitAndSaysWhichOutlinesItSkipped() {
        TestUser bob = api.newUser("lopml");
        long room = 6 - subscriptions.count(bob.numericId());
        List<String> urls = IntStream.range(0, 9).mapToObj(i -> server.url("/lopml/" + bob.username() + "/" + i + ".xml").toString()).toList();
        // Import fetches each new feed once: those in the limit must be feeds.
        IntStream.range(0, 9).forEach(i -> server.feed("/lopml/" + bob.username() + "/" + i + ".xml",
                TestFeeds.numbered("Feed " + i, 1, java.time.Instant.now().minusSeconds(3600))));
        String opml = opml(urls);

        ApiResponse result = api.send("POST", "/api/v1/subscriptions/import", bob.token(), opml, "text/x-opml");
        ApiResponse again = api.send("POST", "/api/v1/subscriptions/import", bob.token(), opml, "text/x-opml");

        assertThat(result.status()).as(result.toString()).isEqualTo(200);
        assertThat(result.json().path("imported").asLong()).isEqualTo(room);
        assertThat(result.json().path("errors").valueStream().map(e -> e.path("url").asString()))
                .containsExactlyElementsOf(urls.subList((int) room, urls.size()));
        assertThat(result.json().path("errors").valueStream().map(e -> e.path("reason").asString())).containsOnly("too_many_subscriptions");
        assertThat(result.json().path("errors").get(0).path("message").asString()).contains("6");
        assertThat(subscriptions.count(bob.numericId())).isEqualTo(6);
        assertThat(again.json().path("imported").asInt()).isZero();
        assertThat(again.json().path("skipped").asLong()).isEqualTo(room);
        assertThat(again.json().path("errors").size()).isEqualTo(urls.size() - (int) room);
        assertThat(feeds.find(urls.getLast())).as("an outline past the limit registers no feed to crawl").isEmpty();
    }

    @Test
    void refusedOutlinesSayWhyWithAStableReason() {
        TestUser carol = api.newUser("lbad");
        ApiResponse result = api.send("POST", "/api/v1/subscriptions/import", carol.token(),
                opml(List.of("javascript:alert(1)", "ftp://files.example/feed")), "text/x-opml");

        assertThat(result.status()).isEqualTo(200);
        assertThat(result.json().path("errors").valueStream().map(e -> e.path("reason").asString()))
                .hasSize(2).allMatch(reason -> !reason.isBlank());
    }

    @Test
    void parallelTokenCreationStopsExactlyAtTheLimit() throws Exception {
        TestUser dave = api.newUser("ltok");

        List<ApiResponse> answers = parallel(IntStream.range(0, PARALLEL).<Callable<ApiResponse>>mapToObj(i -> () -> api.send(
                api.builder("/api/v1/tokens", null).header("Authorization", ApiClient.basic(dave.username(), dave.password()))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"t" + i + "\",\"scopes\":[\"read\"]}"))))
                .toList());

        // The login throttle lets five password checks of one account run at once (429 for the rest):
        // still more than the two tokens left, so the count below is the limit's doing.
        assertThat(answers.stream().map(ApiResponse::status)).as(answers.toString()).containsOnly(201, 422, 429);
        assertThat(answers.stream().filter(a -> a.status() == 201).count()).isEqualTo(2);
        assertThat(tokens.count(dave.numericId())).isEqualTo(3);
        assertThat(answers.stream().filter(a -> a.status() == 422).findFirst().orElseThrow().json().path("reason").asString())
                .isEqualTo("too_many_tokens");
    }

    @Test
    void groupsOwnedAndMembershipsAreCapped() throws Exception {
        TestUser erin = api.newUser("lgrp");
        List<ApiResponse> created = parallel(IntStream.range(0, 6).<Callable<ApiResponse>>mapToObj(i ->
                () -> api.post("/api/v1/groups", erin.token(), Map.of("name", "g" + i))).toList());

        assertThat(created.stream().filter(a -> a.status() == 201).count()).as(created.toString()).isEqualTo(2);
        assertThat(created.stream().filter(a -> a.status() == 422).map(a -> a.json().path("reason").asString()))
                .hasSize(4).containsOnly("too_many_groups");

        TestUser frank = api.newUser("lmem");
        List<String> others = IntStream.range(0, 5).mapToObj(i -> api.post("/api/v1/groups", api.newUser("lown").token(),
                Map.of("name", "open " + i, "open", true)).json().path("id").asString()).toList();
        List<ApiResponse> joined = parallel(others.stream().<Callable<ApiResponse>>map(id -> () -> api.post(
                "/api/v1/groups/" + id + "/members", frank.token(), Map.of("username", frank.username()))).toList());

        assertThat(joined.stream().filter(a -> a.status() == 201).count()).as(joined.toString()).isEqualTo(3);
        assertThat(joined.stream().filter(a -> a.status() == 422).map(a -> a.json().path("reason").asString()))
                .hasSize(2).containsOnly("too_many_memberships");
        assertThat(groups.membershipCount(frank.numericId())).isEqualTo(3);
        assertThat(api.get("/api/v1/groups", frank.token()).json().size()).isEqualTo(3);
    }

    @Test
    void anInvitationPastTheMembershipLimitStaysPending() {
        TestUser gina = api.newUser("linv");
        TestUser owner = api.newUser("linvo");
        String invitedTo = api.post("/api/v1/groups", owner.token(), Map.of("name", "later")).json().path("id").asString();
        String invitation = api.post("/api/v1/groups/" + invitedTo + "/members", owner.token(), Map.of("username", gina.username()))
                .json().path("id").asString();
        for (int i = 0; i < 3; i++) {
            String id = api.post("/api/v1/groups", api.newUser("linvx").token(), Map.of("name", "x" + i, "open", true)).json().path("id").asString();
            api.post("/api/v1/groups/" + id + "/members", gina.token(), Map.of("username", gina.username()));
        }

        ApiResponse accepted = api.post("/api/v1/invitations/" + invitation + "/accept", gina.token(), Map.of());

        assertThat(accepted.status()).isEqualTo(422);
        assertThat(accepted.json().path("reason").asString()).isEqualTo("too_many_memberships");
        assertThat(api.get("/api/v1/invitations", gina.token()).json().size()).isEqualTo(1);
    }

    @Test
    void attachedFeedsAreCapped() {
        TestUser hal = api.newUser("latt");
        List<ApiResponse> answers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String path = "/latt/" + hal.username() + "/" + i + ".xml";
            server.feed(path, TestFeeds.numbered("Attached " + i, 1, Instant.now().minusSeconds(60)));
            answers.add(api.post("/api/v1/me/feeds", hal.token(), Map.of("url", server.url(path).toString())));
        }
        ApiResponse again = api.post("/api/v1/me/feeds", hal.token(), Map.of("url", server.url("/latt/" + hal.username() + "/0.xml").toString()));

        assertThat(answers.stream().map(ApiResponse::status)).as(answers.toString()).containsExactly(201, 201, 422);
        assertThat(answers.getLast().json().path("reason").asString()).isEqualTo("too_many_attached_feeds");
        assertThat(again.status()).as("re-attaching one already attached is not a new one").isEqualTo(200);
        assertThat(api.get("/api/v1/me/feeds", hal.token()).json().size()).isEqualTo(2);
    }

    @Test
    void postsPastThePerMinuteRateAre429WithRetryAfter() {
        TestUser ivy = api.newUser("lpost");
        String group = api.post("/api/v1/groups", ivy.token(), Map.of("name", "rate")).json().path("id").asString();

        List<ApiResponse> answers = List.of(
                api.post("/api/v1/posts", ivy.token(), Map.of("text", "one")),
                api.post("/api/v1/groups/" + group + "/posts", ivy.token(), Map.of("text", "two")),
                api.post("/api/v1/posts", ivy.token(), Map.of("text", "three")),
                api.post("/api/v1/groups/" + group + "/posts", ivy.token(), Map.of("text", "four")),
                api.post("/api/v1/posts", ivy.token(), Map.of("text", "five")));

        assertThat(answers.stream().map(ApiResponse::status)).as(answers.toString()).containsExactly(201, 201, 201, 429, 429);
        assertThat(answers.get(3).contentType()).startsWith("application/problem+json");
        assertThat(Long.parseLong(answers.get(3).header("Retry-After"))).isBetween(1L, 60L);
        assertThat(api.get("/api/v1/groups/" + group + "/feed", ivy.token()).json().size()).isEqualTo(1);
        assertThat(api.post("/api/v1/posts", api.newUser("lpost2").token(), Map.of("text", "another person")).status())
                .as("the allowance is per person").isEqualTo(201);
    }

    @Test
    void commentsPastThePerMinuteRateAre429() {
        TestUser jo = api.newUser("lcom");
        String item = api.post("/api/v1/posts", api.newUser("lcoma").token(), Map.of("text", "comment on me")).json().path("id").asString();
        String path = "/api/v1/items/" + item + "/comments";

        List<Integer> statuses = IntStream.range(0, 3).mapToObj(i -> api.post(path, jo.token(), Map.of("text", "c" + i)).status()).toList();

        assertThat(statuses).containsExactly(201, 201, 429);
        assertThat(api.get(path, jo.token()).json().size()).isEqualTo(2);
    }

    @Test
    void googleReaderSubscribingCountsAgainstTheSameLimit() {
        TestUser kim = api.newUser("lgr");
        for (long i = subscriptions.count(kim.numericId()); i < 6; i++) {
            assertThat(api.post("/api/v1/subscriptions", kim.token(), Map.of("user", api.newUser("lgrp").username())).status())
                    .isEqualTo(201);
        }
        String feed = "/lgr/" + kim.username() + ".xml";
        server.feed(feed, TestFeeds.numbered("Reader", 1, Instant.now().minusSeconds(60)));
        ApiResponse login = form("/accounts/ClientLogin", null, "Email=" + kim.username() + "&Passwd=" + kim.token());
        String auth = login.body().lines().filter(l -> l.startsWith("Auth=")).findFirst().orElseThrow().substring(5);

        ApiResponse quickadd = form("/reader/api/0/subscription/quickadd", auth,
                "quickadd=" + URLEncoder.encode(server.url(feed).toString(), StandardCharsets.UTF_8));
        ApiResponse edit = form("/reader/api/0/subscription/edit", auth, "ac=subscribe&s="
                + URLEncoder.encode("feed/" + server.url(feed), StandardCharsets.UTF_8));

        assertThat(quickadd.status()).as(quickadd.toString()).isEqualTo(200);
        assertThat(quickadd.json().path("numResults").asInt()).isZero();
        assertThat(quickadd.json().path("error").asString()).contains("6");
        assertThat(edit.status()).as(edit.toString()).isEqualTo(422);
        assertThat(edit.json().path("reason").asString()).isEqualTo("too_many_subscriptions");
        assertThat(subscriptions.count(kim.numericId())).isEqualTo(6);
    }

    private ApiResponse form(String path, String auth, String body) {
        HttpRequest.Builder request = api.builder(path, null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (auth != null) {
            request.header("Authorization", "GoogleLogin auth=" + auth);
        }
        return api.send(request);
    }

    private static List<ApiResponse> parallel(List<Callable<ApiResponse>> calls) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ApiResponse>> futures = new ArrayList<>();
        for (Callable<ApiResponse> call : calls) {
            futures.add(POOL.submit(() -> {
                start.await();
                return call.call();
            }));
        }
        start.countDown();
        List<ApiResponse> answers = new ArrayList<>();
        for (Future<ApiResponse> future : futures) {
            answers.add(future.get(60, TimeUnit.SECONDS));
        }
        return answers;
    }

    private static String opml(List<String> urls) {
        StringBuilder body = new StringBuilder();
        for (String url : urls) {
            body.append("<outline type=\"rss\" text=\"t\" xmlUrl=\"").append(url.replace("&", "&amp;").replace("\"", "&quot;")).append("\"/>\n");
        }
        return "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>x</title></head><body>\n" + body + "</body></opml>";
    }
}
