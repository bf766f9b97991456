package dev.tributary.api.greader;

import static dev.tributary.api.testing.ReaderClient.hexId;
import static dev.tributary.api.testing.ReaderClient.longId;
import static dev.tributary.api.timeline.Deliveries.entry;
import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.fever.FeverTestIds;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.IdGenerator;
import dev.tributary.storage.testing.Await;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The Google Reader API driven with the call sequences of NetNewsWire ({@code ReaderAPICaller}),
 * ReadYou ({@code GoogleReaderAPI}) and FluentReader ({@code services/greader.ts}) on a first and
 * a later sync, checked against what the REST API and the Fever view say afterwards.
 */
@ApiTest
class GoogleReaderApiTest {

    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    private static final String READING_LIST = "user/-/state/com.google/reading-list";
    private static final String READ = "user/-/state/com.google/read";
    private static final String STARRED = "user/-/state/com.google/starred";

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired JdbcClient jdbc;
    private ApiClient api;
    private ReaderClient reader;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        reader = new ReaderClient(api);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    @Test
    void netNewsWireFirstAndLaterSync() {
        TestUser alice = api.newUser("nnw");
        server.feed("/nnw.xml", TestFeeds.numbered("Alpha", 3, Instant.now().minus(1, ChronoUnit.HOURS)));
        String feedUrl = server.url("/nnw.xml").toString();
        String auth = reader.login(alice.username(), alice.token());
        String t = reader.ok("/reader/api/0/token", auth).body().strip();
        assertThat(reader.ok("/reader/api/0/tag/list?output=json", auth).json().path("tags").get(0).path("id").asString())
                .isEqualTo(STARRED);
        assertThat(reader.ok("/reader/api/0/subscription/list?output=json", auth).json().path("subscriptions").size()).isZero();

        JsonNode added = reader.ok("/reader/api/0/subscription/quickadd", auth,
                List.of(entry("T", t), entry("quickadd", feedUrl))).json();
        assertThat(added.path("numResults").asInt()).isEqualTo(1);
        String streamId = added.path("streamId").asString();
        assertThat(streamId).isEqualTo("feed/" + feedUrl);
        reader.ok("/reader/api/0/subscription/edit", auth, List.of(entry("T", t), entry("s", streamId), entry("ac", "edit"),
                entry("a", "user/-/label/Tech"), entry("t", "My Alpha")));

        JsonNode list = reader.ok("/reader/api/0/subscription/list?output=json", auth).json().path("subscriptions");
        assertThat(list.size()).isEqualTo(1);
        assertThat(list.get(0).path("id").asString()).isEqualTo(streamId);
        assertThat(list.get(0).path("title").asString()).isEqualTo("My Alpha");
        assertThat(list.get(0).path("url").asString()).isEqualTo(feedUrl);
        assertThat(list.get(0).path("categories").get(0).path("label").asString()).isEqualTo("Tech");

        long since = Instant.now().minus(90, ChronoUnit.DAYS).getEpochSecond();
        String allIds = "/reader/api/0/stream/items/ids?n=1000&output=json&ot=" + since + "&s=" + READING_LIST;
        List<String> ids = Await.value("the feed's items in the reading list",
                () -> refs(reader.ok(allIds, auth).json()), found -> found.size() == 3);
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?n=1000&output=json&s=" + READING_LIST + "&xt=" + READ,
                auth).json())).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?n=1000&output=json&s=" + STARRED, auth).json())).isEmpty();

        List<Map.Entry<String, String>> form = new ArrayList<>(List.of(entry("T", t), entry("output", "json")));
        ids.forEach(id -> form.add(entry("i", longId(Long.parseLong(id)))));
        JsonNode contents = reader.ok("/reader/api/0/stream/items/contents", auth, form).json();
        assertThat(contents.path("id").isMissingNode()).isFalse();
        assertThat(contents.path("updated").asLong()).isPositive();
        assertThat(contents.path("items").size()).isEqualTo(3);
        JsonNode first = contents.path("items").get(0);
        assertThat(first.path("id").asString()).matches("tag:google\\.com,2005:reader/item/[0-9a-f]{16}");
        assertThat(ids).contains(Long.toString(Long.parseUnsignedLong(first.path("id").asString().substring(32), 16)));
        assertThat(first.path("origin").path("streamId").asString()).isEqualTo(streamId);
        assertThat(first.path("origin").path("title").asString()).isEqualTo("Alpha");
        assertThat(first.path("published").asLong()).isPositive();
        assertThat(first.path("crawlTimeMsec").isString()).isTrue();
        assertThat(first.path("timestampUsec").isString()).isTrue();
        assertThat(first.path("alternate").get(0).path("href").asString()).startsWith("https://");
        assertThat(first.path("summary").path("content").isString()).isTrue();
        assertThat(strings(first.path("categories"))).contains(READING_LIST, "user/-/label/Tech").doesNotContain(READ);

        String one = ids.get(0);
        String two = ids.get(1);
        reader.ok("/reader/api/0/edit-tag", auth, List.of(entry("T", t), entry("i", longId(Long.parseLong(one))), entry("a", READ)));
        reader.ok("/reader/api/0/edit-tag", auth, List.of(entry("T", t), entry("i", longId(Long.parseLong(two))), entry("a", STARRED)));
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isEqualTo(2);
        assertThat(api.get("/api/v1/items/" + two + "/star", alice.token()).json().path("starred").asBoolean()).isTrue();
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?n=1000&output=json&s=" + STARRED, auth).json()))
                .containsExactly(two);
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?n=1000&output=json&s=" + READING_LIST + "&xt=" + READ,
                auth).json())).doesNotContain(one).hasSize(2);

        // A later sync: one new item, fetched by the time of the last sync.
        long lastSync = Instant.now().getEpochSecond();
        long source = sources.findFeed(feedUrl).orElseThrow().id();
        List<Long> fresh = deliveries.publish(source, entry(MediaType.TEXT));
        List<String> newer = Await.value("the new item", () -> refs(reader.ok("/reader/api/0/stream/items/ids?n=1000"
                + "&output=json&ot=" + lastSync + "&s=" + READING_LIST, auth).json()),
                found -> found.contains(fresh.getFirst().toString()));
        // ot is whole seconds: what was stored in that second comes again (apps keep what they have), nothing older.
        assertThat(newer).allSatisfy(id -> assertThat(IdGenerator.timestampOf(Long.parseLong(id)).getEpochSecond())
                .isGreaterThanOrEqualTo(lastSync));

        // NetNewsWire names both labels bare; ReadYou sends label stream ids.
        reader.ok("/reader/api/0/rename-tag", auth, List.of(entry("T", t), entry("s", "Tech"), entry("dest", "Later")));
        assertThat(api.get("/api/v1/folders", alice.token()).json().get(0).path("name").asString()).isEqualTo("Later");
        reader.ok("/reader/api/0/rename-tag", auth, List.of(entry("T", t), entry("s", "user/-/label/Later"),
                entry("dest", "user/-/label/Reading")));
        assertThat(api.get("/api/v1/folders", alice.token()).json().get(0).path("name").asString()).isEqualTo("Reading");
        assertThat(strings(reader.ok("/reader/api/0/stream/items/contents?i=" + one, auth).json().path("items").get(0)
                .path("categories"))).contains("user/-/label/Reading", READ);

        agree(alice, auth);
        reader.ok("/reader/api/0/subscription/edit", auth, List.of(entry("T", t), entry("s", streamId), entry("ac", "unsubscribe")));
        assertThat(reader.ok("/reader/api/0/subscription/list?output=json", auth).json().path("subscriptions").size()).isZero();
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isZero();
    }

    @Test
    void unsubscribingThroughSubscriptionEditWithdrawsTheFullArticleWish() {
        TestUser carol = api.newUser("fullwish");
        server.feed("/wish.xml", TestFeeds.numbered("Wish", 1, Instant.now().minus(1, ChronoUnit.HOURS)));
        ApiResponse subscribed = api.post("/api/v1/subscriptions", carol.token(), Map.of("url", server.url("/wish.xml").toString()));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        String id = subscribed.json().path("id").asString();
        long source = Long.parseLong(subscribed.json().path("source").path("id").asString());
        ApiResponse wished = api.send("PATCH", "/api/v1/subscriptions/" + id, carol.token(), Map.of("full_content", true),
                "application/json");
        assertThat(wished.json().path("full_content").asBoolean()).as(wished.toString()).isTrue();
        assertThat(wishes(carol, source)).isEqualTo(1);

        String auth = reader.login(carol.username(), carol.token());
        String stream = reader.ok("/reader/api/0/subscription/list?output=json", auth).json().path("subscriptions").get(0)
                .path("id").asString();
        reader.ok("/reader/api/0/subscription/edit", auth, List.of(entry("ac", "unsubscribe"), entry("s", stream)));

        assertThat(api.get("/api/v1/subscriptions", carol.token()).json().size()).isZero();
        assertThat(wishes(carol, source)).as("the wish went with the subscription").isZero();
        assertThat(api.post("/api/v1/subscriptions", carol.token(), Map.of("url", server.url("/wish.xml").toString()))
                .json().path("full_content").asBoolean()).as("a new subscription starts without it").isFalse();
    }

    private long wishes(TestUser person, long source) {
        return jdbc.sql("SELECT COUNT(*) FROM article_readers WHERE user_id = ? AND source_id = ?")
                .params(person.numericId(), source).query(Long.class).single();
    }

    @Test
    void readYouSyncWithJsonLoginLabelsAndMarkAllRead() {
        TestUser bob = api.newUser("readyou");
        long news = deliveries.feed();
        long blogs = deliveries.feed();
        deliveries.follow(bob, news);
        deliveries.follow(bob, blogs);
        List<Long> fromNews = deliveries.deliver(news, List.of(bob), entry(MediaType.TEXT), entry(MediaType.IMAGE));
        List<Long> fromBlogs = deliveries.deliver(blogs, List.of(bob), entry(MediaType.TEXT));
        String folder = api.post("/api/v1/folders", bob.token(), Map.of("name", "News")).json().path("id").asString();
        String newsSub = subscriptionOf(bob, news);
        api.send("PATCH", "/api/v1/subscriptions/" + newsSub, bob.token(), Map.of("folder_ids", List.of(folder)), "application/json");

        ApiResponse login = reader.clientLogin(List.of(entry("output", "json"), entry("Email", bob.username()),
                entry("Passwd", bob.password()), entry("client", "ReadYou"), entry("accountType", "HOSTED_OR_GOOGLE"),
                entry("service", "reader")));
        assertThat(login.status()).as(login.toString()).isEqualTo(200);
        String auth = login.json().path("Auth").asString();
        String t = reader.ok("/reader/api/0/token", auth).body();

        JsonNode subs = reader.ok("/reader/api/0/subscription/list?output=json", auth).json().path("subscriptions");
        assertThat(subs.size()).isEqualTo(2);
        long lastMonth = Instant.now().minus(30, ChronoUnit.DAYS).getEpochSecond();
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?output=json&s=" + READING_LIST + "&xt=" + READ
                + "&n=10000", auth).json())).hasSize(3);
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?output=json&s=" + STARRED + "&n=10000", auth).json())).isEmpty();
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?output=json&s=" + READ + "&ot=" + lastMonth + "&n=10000",
                auth).json())).isEmpty();
        String feedStream = find(subs, "feed/https://feeds.example.test/", news).path("id").asString();
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?output=json&s=" + enc(feedStream) + "&xt=" + READ
                + "&n=10000", auth).json())).containsExactlyInAnyOrder(fromNews.get(0).toString(), fromNews.get(1).toString());
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?output=json&s=user/-/label/News&n=10000", auth).json()))
                .hasSize(2);

        List<Map.Entry<String, String>> form = new ArrayList<>();
        List.of(fromNews.get(0), fromNews.get(1), fromBlogs.get(0)).forEach(id -> form.add(entry("i", id.toString())));
        form.add(entry("T", t));
        JsonNode items = reader.ok("/reader/api/0/stream/items/contents?output=json", auth, form).json().path("items");
        assertThat(items.size()).isEqualTo(3);

        // Read one by short (decimal) id, then mark the label read up to now, as ReadYou does.
        reader.ok("/reader/api/0/edit-tag?output=json", auth, List.of(entry("i", fromBlogs.get(0).toString()), entry("a", READ),
                entry("T", t)));
        reader.ok("/reader/api/0/mark-all-as-read?output=json", auth, List.of(entry("s", "user/-/label/News"),
                entry("ts", Long.toString(Instant.now().toEpochMilli() * 1000)), entry("T", t)));
        assertThat(api.get("/api/v1/unread", bob.token()).json().path("total").asLong()).isZero();
        JsonNode counts = reader.ok("/reader/api/0/unread-count?output=json", auth).json();
        assertThat(counts.path("unreadcounts").size()).isEqualTo(1);
        assertThat(counts.path("unreadcounts").get(0).path("count").asLong()).isZero();

        reader.ok("/reader/api/0/edit-tag?output=json", auth, List.of(entry("i", fromNews.get(1).toString()), entry("r", READ),
                entry("T", t)));
        assertThat(api.get("/api/v1/unread", bob.token()).json().path("total").asLong()).isEqualTo(1);
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?output=json&s=" + READ + "&ot=" + lastMonth + "&n=10000",
                auth).json())).containsExactlyInAnyOrder(fromNews.get(0).toString(), fromBlogs.get(0).toString());

        reader.ok("/reader/api/0/disable-tag?output=json", auth, List.of(entry("s", "user/-/label/News"), entry("T", t)));
        assertThat(api.get("/api/v1/folders", bob.token()).json().size()).isZero();
        assertThat(api.get("/api/v1/subscriptions", bob.token()).json().size()).as("subscriptions stay").isEqualTo(2);
        agree(bob, auth);
    }

    @Test
    void fluentReaderSyncsWithTheHeaderAloneAndPagesWithContinuations() {
        TestUser carol = api.newUser("fluent");
        long news = deliveries.feed();
        deliveries.follow(carol, news);
        List<Long> all = deliveries.deliver(news, List.of(carol), entry(MediaType.TEXT), entry(MediaType.TEXT),
                entry(MediaType.TEXT), entry(MediaType.TEXT), entry(MediaType.TEXT));
        String auth = reader.login(carol.username(), carol.token());
        assertThat(reader.ok("/reader/api/0/user-info", auth).json().path("userName").asString()).isEqualTo(carol.username());

        List<String> paged = new ArrayList<>();
        String continuation = null;
        for (int call = 0; call < 10; call++) {
            JsonNode page = reader.ok("/reader/api/0/stream/items/ids?output=json&s=" + READING_LIST + "&xt=" + READ + "&n=2"
                    + (continuation == null ? "" : "&c=" + continuation), auth).json();
            paged.addAll(refs(page));
            continuation = page.path("continuation").isString() ? page.path("continuation").asString() : null;
            if (continuation == null) {
                break;
            }
        }
        assertThat(paged).containsExactlyElementsOf(all.reversed().stream().map(String::valueOf).toList());

        JsonNode contents = reader.ok("/reader/api/0/stream/contents?output=json&n=3", auth).json();
        assertThat(contents.path("items").size()).isEqualTo(3);
        assertThat(contents.path("items").get(0).path("canonical").get(0).path("href").asString()).startsWith("https://");
        JsonNode rest = reader.ok("/reader/api/0/stream/contents?output=json&n=3&c=" + contents.path("continuation").asString(),
                auth).json();
        assertThat(rest.path("items").size()).isEqualTo(2);
        JsonNode oldestFirst = reader.ok("/reader/api/0/stream/contents/" + READING_LIST + "?output=json&n=1&r=o", auth).json();
        assertThat(oldestFirst.path("items").get(0).path("id").asString()).isEqualTo(longId(all.getFirst()));

        // FluentReader posts marks with the header alone: no T.
        assertThat(reader.post("/reader/api/0/edit-tag", auth, List.of(entry("i", hexId(all.get(0))), entry("a", READ)))
                .status()).isEqualTo(200);
        assertThat(api.get("/api/v1/unread", carol.token()).json().path("total").asLong()).isEqualTo(4);
        String feed = reader.ok("/reader/api/0/subscription/list?output=json", auth).json().path("subscriptions").get(0)
                .path("id").asString();
        assertThat(reader.post("/reader/api/0/mark-all-as-read", auth, List.of(entry("s", feed))).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/unread", carol.token()).json().path("total").asLong()).isZero();
        agree(carol, auth);
    }

    @Test
    void aPersonIsFollowedByTheirExportUrlAndTheirPostsArriveAsItems() {
        TestUser writer = api.newUser("writer");
        TestUser follower = api.newUser("follower");
        String auth = reader.login(follower.username(), follower.token());
        String export = api.url("/feeds/users/" + writer.username() + ".atom");

        reader.ok("/reader/api/0/subscription/edit", auth, List.of(entry("ac", "subscribe"), entry("s", "feed/" + export),
                entry("a", "user/-/label/Friends")));
        JsonNode subs = reader.ok("/reader/api/0/subscription/list", auth).json().path("subscriptions");
        assertThat(subs.size()).isEqualTo(1);
        assertThat(subs.get(0).path("id").asString()).isEqualTo("feed/" + export);
        assertThat(subs.get(0).path("title").asString()).isEqualTo(writer.username());
        assertThat(subs.get(0).path("htmlUrl").asString()).isEqualTo(api.url("/people/" + writer.username()));
        assertThat(api.get("/api/v1/subscriptions", follower.token()).json().get(0).path("source").path("kind").asString())
                .isEqualTo("user");

        String post = api.post("/api/v1/posts", writer.token(), Map.of("text", "hello readers")).json().path("id").asString();
        List<String> ids = Await.value("the post in the follower's reading list", () -> refs(reader.ok(
                "/reader/api/0/stream/items/ids?s=user/-/label/Friends", auth).json()), found -> found.contains(post));
        JsonNode item = reader.ok("/reader/api/0/stream/items/contents?i=" + ids.getFirst(), auth).json().path("items").get(0);
        assertThat(item.path("origin").path("streamId").asString()).isEqualTo("feed/" + export);
        assertThat(item.path("alternate").get(0).path("href").asString()).as("a post without a link: its page")
                .isEqualTo(api.url("/items/" + post));

        reader.ok("/reader/api/0/subscription/edit", auth, List.of(entry("ac", "unsubscribe"), entry("s", "feed/" + export)));
        assertThat(api.get("/api/v1/subscriptions", follower.token()).json().size()).isZero();
        ApiResponse self = reader.post("/reader/api/0/subscription/edit", reader.login(writer.username(), writer.token()),
                List.of(entry("ac", "unsubscribe"), entry("s", "feed/" + export)));
        assertThat(self.status()).as("one's own source is not a subscription to leave").isEqualTo(404);
    }

    @Test
    void anOpenGroupIsFollowedByItsPageUrlAndItsPostsArriveAsItems() {
        TestUser owner = api.newUser("gowner");
        TestUser follower = api.newUser("gfollow");
        // Open: a closed group is its members' alone (ClosedGroupApiTest).
        long group = api.post("/api/v1/groups", owner.token(), Map.of("name", "Night hikers", "open", true)).json().path("id").asLong();
        String page = api.url("/groups/" + group);
        String auth = reader.login(follower.username(), follower.token());

        reader.ok("/reader/api/0/subscription/edit", auth, List.of(entry("ac", "subscribe"), entry("s", "feed/" + page)));
        JsonNode subs = reader.ok("/reader/api/0/subscription/list", auth).json().path("subscriptions");
        assertThat(subs.size()).isEqualTo(1);
        assertThat(subs.get(0).path("id").asString()).isEqualTo("feed/" + page);
        assertThat(subs.get(0).path("title").asString()).isEqualTo("Night hikers");
        assertThat(subs.get(0).path("htmlUrl").asString()).isEqualTo(page);
        assertThat(api.get("/api/v1/subscriptions", follower.token()).json().get(0).path("source").path("kind").asString())
                .isEqualTo("group");

        String post = api.post("/api/v1/groups/" + group + "/posts", owner.token(), Map.of("text", "full moon walk"))
                .json().path("id").asString();
        List<String> ids = Await.value("the group's post in the follower's reading list", () -> refs(reader.ok(
                "/reader/api/0/stream/items/ids?s=" + READING_LIST, auth).json()), found -> found.contains(post));
        JsonNode item = reader.ok("/reader/api/0/stream/items/contents?i=" + ids.getFirst(), auth).json().path("items").get(0);
        assertThat(item.path("origin").path("streamId").asString()).isEqualTo("feed/" + page);
        assertThat(item.path("origin").path("title").asString()).isEqualTo("Night hikers");

        ApiResponse unknown = reader.post("/reader/api/0/subscription/edit", auth,
                List.of(entry("ac", "subscribe"), entry("s", "feed/" + api.url("/groups/" + (group + 1_000_000)))));
        assertThat(unknown.status()).as("a group that does not exist is not subscribed").isBetween(400, 499);
    }

    @Test
    void theAuthValueDiesWithItsTokenAndBadCredentialsAreRefused() {
        TestUser dave = api.newUser("revoke");
        ApiResponse created = api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(dave.username(), dave.password()))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"name\":\"NNW\",\"scopes\":[\"read\",\"write\"]}")));
        String token = created.json().path("token").asString();
        String auth = reader.login(dave.username(), token);
        assertThat(reader.get("/reader/api/0/user-info", auth).status()).isEqualTo(200);
        assertThat(api.delete("/api/v1/tokens/" + created.json().path("id").asString(), dave.token()).status()).isEqualTo(204);
        ApiResponse revoked = reader.get("/reader/api/0/user-info", auth);
        assertThat(revoked.status()).isEqualTo(401);
        assertThat(revoked.header("X-Reader-Google-Bad-Token")).isEqualTo("true");
        assertThat(revoked.header("Content-Type")).startsWith("application/problem+json");

        TestUser eve = api.newUser("other");
        for (List<Map.Entry<String, String>> form : List.of(
                List.of(entry("Email", dave.username()), entry("Passwd", "wrong password")),
                List.of(entry("Email", eve.username()), entry("Passwd", dave.token())),
                List.of(entry("Email", dave.username()), entry("Passwd", token)),
                List.of(entry("Email", dave.username())),
                List.of(entry("Passwd", dave.password())),
                List.of(entry("Email", "x".repeat(5000)), entry("Passwd", "y")))) {
            ApiResponse refused = reader.clientLogin(form);
            assertThat(refused.status()).as(form.toString()).isEqualTo(401);
            assertThat(refused.body()).isEqualTo("Error=BadAuthentication\n");
        }
        for (String header : List.of("", "GoogleLogin auth=", "GoogleLogin auth=trg_nope", "Bearer " + dave.token(),
                "GoogleLogin auth=" + dave.token())) {
            ApiResponse answer = api.send(api.builder("/reader/api/0/user-info", null).header("Authorization",
                    header.isEmpty() ? "None" : header).GET());
            assertThat(answer.status()).as(header).isEqualTo(401);
            assertThat(answer.header("X-Reader-Google-Bad-Token")).isEqualTo("true");
        }
        String passwordAuth = reader.login(dave.username(), dave.password());
        assertThat(reader.get("/reader/api/0/user-info", passwordAuth).status()).isEqualTo(200);
        assertThat(reader.get("/reader/api/0/user-info", passwordAuth).header("RateLimit-Limit")).isNotNull();
    }

    @Test
    void hostileInputGetsClearAnswersAndOtherPeoplesItemsStayOut() {
        TestUser owner = api.newUser("owner");
        TestUser intruder = api.newUser("intruder");
        long secret = deliveries.feed();
        deliveries.follow(owner, secret);
        long theirs = deliveries.deliver(secret, List.of(owner), entry(MediaType.TEXT)).getFirst();
        String auth = reader.login(intruder.username(), intruder.token());
        String t = reader.ok("/reader/api/0/token", auth).body();

        assertThat(reader.ok("/reader/api/0/stream/items/contents?i=" + theirs, auth).json().path("items").size()).isZero();
        reader.ok("/reader/api/0/edit-tag", auth, List.of(entry("T", t), entry("i", longId(theirs)), entry("a", READ)));
        reader.ok("/reader/api/0/edit-tag", auth, List.of(entry("T", t), entry("i", longId(theirs)), entry("a", STARRED)));
        assertThat(api.get("/api/v1/unread", owner.token()).json().path("total").asLong()).isEqualTo(1);
        assertThat(refs(reader.ok("/reader/api/0/stream/items/ids?s=" + STARRED, auth).json())).isEmpty();
        assertThat(reader.get("/reader/api/0/stream/items/ids?s=feed/https://feeds.example.test/secret", auth).status())
                .isEqualTo(404);

        for (String query : List.of("s=user/-/state/com.example/nope", "s=nonsense", "s=user/-/label", "n=abc", "n=-1", "n=0",
                "c=xyz", "c=s", "ot=-5", "ot=1e9", "nt=99999999999999999999", "xt=bogus", "s=" + "a".repeat(3000))) {
            ApiResponse answer = reader.get("/reader/api/0/stream/items/ids?" + query, auth);
            assertThat(answer.status()).as(query + " " + answer).isEqualTo(400);
            assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        }
        assertThat(reader.get("/reader/api/0/stream/items/ids?s=user/-/label/missing", auth).status()).isEqualTo(404);
        assertThat(reader.get("/reader/api/0/stream/items/ids?s=user/-/state/com.google/like&n=99999999", auth).status())
                .isEqualTo(200);
        assertThat(reader.get("/reader/api/0/stream/items/ids?ot=99999999999", auth).status()).isEqualTo(200);
        for (String id : List.of("abc", "tag:google.com,2005:reader/item/xyz", "123456789012345678901234", "-5",
                "tag:google.com,2005:reader/item/ffffffffffffffff", "")) {
            ApiResponse answer = reader.post("/reader/api/0/edit-tag", auth, List.of(entry("i", id), entry("a", READ)));
            assertThat(answer.status()).as(id).isEqualTo(400);
        }
        List<Map.Entry<String, String>> tooMany = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            tooMany.add(entry("i", Long.toString(1_000_000_000_000_000L + i)));
        }
        ApiResponse overCap = reader.post("/reader/api/0/stream/items/contents", auth, tooMany);
        assertThat(overCap.status()).as(overCap.toString()).isEqualTo(400);
        assertThat(overCap.body()).contains("1000");
        List<Map.Entry<String, String>> flood = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            flood.add(entry("i", Long.toString(1_000_000_000_000_000L + i)));
        }
        ApiResponse flooded = reader.post("/reader/api/0/edit-tag", auth, flood);
        assertThat(flooded.status()).as(flooded.toString()).isBetween(400, 499);

        ApiResponse badT = reader.post("/reader/api/0/edit-tag", auth, List.of(entry("T", "forged"), entry("i", "1"),
                entry("a", READ)));
        assertThat(badT.status()).isEqualTo(401);
        assertThat(badT.header("X-Reader-Google-Bad-Token")).isEqualTo("true");
        for (List<Map.Entry<String, String>> form : List.of(List.of(entry("ac", "subscribe")),
                List.of(entry("ac", "explode"), entry("s", "feed/https://x.test/")), List.of(entry("ac", "edit"),
                        entry("s", READING_LIST)))) {
            assertThat(reader.post("/reader/api/0/subscription/edit", auth, form).status()).as(form.toString()).isEqualTo(400);
        }
        assertThat(reader.post("/reader/api/0/subscription/edit", auth, List.of(entry("ac", "edit"),
                entry("s", "feed/https://nobody.test/feed"))).status()).isEqualTo(404);
        assertThat(reader.post("/reader/api/0/mark-all-as-read", auth, List.of()).status()).isEqualTo(400);
        assertThat(reader.post("/reader/api/0/rename-tag", auth, List.of(entry("s", "user/-/label/none"),
                entry("dest", "x"))).status()).isEqualTo(404);
        JsonNode refused = reader.ok("/reader/api/0/subscription/quickadd", auth,
                List.of(entry("quickadd", "http://10.1.2.3/feed.xml"))).json();
        assertThat(refused.path("numResults").asInt()).isZero();
        assertThat(refused.path("error").asString()).isNotBlank();

        String readOnly = api.createToken(intruder.username(), intruder.password(), "ro", "read");
        String roAuth = reader.login(intruder.username(), readOnly);
        assertThat(reader.get("/reader/api/0/stream/items/ids", roAuth).status()).isEqualTo(200);
        assertThat(reader.post("/reader/api/0/stream/items/contents", roAuth, List.of(entry("i", "1"))).status()).isEqualTo(200);
        assertThat(reader.post("/reader/api/0/edit-tag", roAuth, List.of(entry("i", "1"), entry("a", READ))).status())
                .isEqualTo(403);
    }

    /** The Google Reader counts, the REST API's (which the web front end shows) and the Fever view agree. */
    private void agree(TestUser user, String auth) {
        long rest = api.get("/api/v1/unread", user.token()).json().path("total").asLong();
        JsonNode counts = reader.ok("/reader/api/0/unread-count?output=json", auth).json().path("unreadcounts");
        long readingList = StreamSupport.stream(counts.spliterator(), false)
                .filter(c -> c.path("id").asString().equals(READING_LIST)).findFirst().orElseThrow().path("count").asLong();
        List<String> unreadIds = refs(reader.ok("/reader/api/0/stream/items/ids?n=10000&s=" + READING_LIST + "&xt=" + READ,
                auth).json());
        assertThat(readingList).isEqualTo(rest);
        assertThat(unreadIds).hasSize((int) rest);
        String feverToken = api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(user.username(), user.password()))
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"name\":\"Reeder\",\"scopes\":[\"read\",\"write\"],\"fever\":true}")))
                .json().path("token").asString();
        String key = md5(user.username() + ":" + feverToken);
        String fever = api.send(api.builder("/fever/?api&unread_item_ids", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("api_key=" + key))).json()
                .path("unread_item_ids").asString();
        // Fever shows each id without its node bits (exact in a double): the same items, in Fever's spelling.
        assertThat(fever.isEmpty() ? List.of() : List.of(fever.split(",")))
                .containsExactlyInAnyOrderElementsOf(unreadIds.stream().map(FeverTestIds::of).toList());
    }

    private String subscriptionOf(TestUser user, long sourceId) {
        for (JsonNode sub : api.get("/api/v1/subscriptions", user.token()).json()) {
            if (sub.path("source").path("id").asString().equals(String.valueOf(sourceId))) {
                return sub.path("id").asString();
            }
        }
        throw new AssertionError("no subscription to " + sourceId);
    }

    private JsonNode find(JsonNode subscriptions, String prefix, long sourceId) {
        String url = sources.get(sourceId).body().url();
        for (JsonNode sub : subscriptions) {
            if (sub.path("id").asString().equals("feed/" + url)) {
                assertThat(sub.path("id").asString()).startsWith(prefix);
                return sub;
            }
        }
        throw new AssertionError(url + " not in " + subscriptions);
    }

    @Test
    void anItemWhoseFullArticleIsKeptCarriesItAsContent() {
        TestUser alice = api.newUser("fullgr");
        StringBuilder page = new StringBuilder("<html><head><title>Whole</title></head><body><article>");
        for (int i = 0; i < 6; i++) {
            page.append("<p>Paragraph ").append(i).append(" of the article the feed only teased, with commas, clauses,"
                    + " and enough words to read as prose rather than as a menu or a list of links.</p>");
        }
        server.feed("/gr-article", page.append("</article></body></html>").toString(), "text/html", Map.of());
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        dev.tributary.pubsub.NewItem teaser = new dev.tributary.pubsub.NewItem("gr-" + System.nanoTime(), "Teaser", "<p>The first line</p>",
                server.url("/gr-article").toString(), null, MediaType.TEXT, List.of(), List.of(), Instant.now());
        dev.tributary.pubsub.NewItem plain = entry(MediaType.TEXT);
        // Published apart: one publish numbers its entries by publication date, not in the order given.
        List<Long> ids = List.of(deliveries.deliver(feed, List.of(alice), teaser).getFirst(),
                deliveries.deliver(feed, List.of(alice), plain).getFirst());
        ApiResponse article = api.get("/api/v1/items/" + ids.get(0) + "/content", alice.token());
        assertThat(article.status()).as(article.toString()).isEqualTo(200);
        String auth = reader.login(alice.username(), alice.token());

        JsonNode items = reader.ok("/reader/api/0/stream/items/contents", auth, List.of(entry("output", "json"),
                entry("i", longId(ids.get(0))), entry("i", longId(ids.get(1))))).json().path("items");

        assertThat(items.size()).isEqualTo(2);
        for (JsonNode item : items) {
            boolean full = item.path("id").asString().equals(longId(ids.get(0)));
            assertThat(item.path("summary").path("content").asString()).isNotBlank();
            assertThat(item.path("content").path("content").asString(""))
                    .as("content only where an article is kept").contains(full ? "Paragraph 5 of the article" : "");
            assertThat(item.path("content").isMissingNode()).isEqualTo(!full);
        }
    }

    private static List<String> refs(JsonNode answer) {
        return StreamSupport.stream(answer.path("itemRefs").spliterator(), false).map(r -> r.path("id").asString()).toList();
    }

    private static List<String> strings(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asString).toList();
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String md5(String text) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
