package dev.tributary.api.greader;

import static dev.tributary.api.timeline.Deliveries.entry;
import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.ReaderClient;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The exact request sequences of clients that cannot run here, replayed from their source, for
 * what GoogleReaderApiTest does not cover already: libgreader's paths and fields, and NetNewsWire's
 * FreshRSS account, which puts {@code /api/greader.php} before every path.
 */
@ApiTest
class ClientReplayTest {

    private static final String READ = "user/-/state/com.google/read";

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    private ApiClient api;
    private ReaderClient reader;
    private Deliveries deliveries;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        reader = new ReaderClient(api);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
    }

    /**
     * libgreader (github.com/askedrelic/libgreader): libgreader/auth.py ({@code ClientAuthMethod}:
     * ClientLogin with {@code service}, {@code Email}, {@code Passwd}, {@code accountType}, its
     * answer split into {@code key=value} lines, then {@code GET token}; every POST carries
     * {@code T}), libgreader/googlereader.py ({@code buildSubscriptionList}: user-info,
     * unread-count, subscription/list; {@code _getFeedContent}: {@code n}, {@code xt}, {@code c};
     * {@code _modifyItemTag}: edit-tag with {@code ac=edit-tags}; {@code markFeedAsRead}) and
     * libgreader/items.py ({@code fetchUrl}: {@code stream/contents/} + {@code quote(id)}, which
     * leaves slashes unencoded).
     */
    @Test
    void libgreader() {
        TestUser user = api.newUser("libgreader");
        String url = "http://feeds.example.test:8080/" + UUID.randomUUID() + "/feed.xml";
        long source = sources.feed(url).id();
        deliveries.follow(user, source);
        List<Long> items = deliveries.deliver(source, List.of(user), entry(MediaType.TEXT), entry(MediaType.TEXT),
                entry(MediaType.TEXT));

        ApiResponse login = reader.clientLogin(List.of(entry("service", "reader"), entry("Email", user.username()),
                entry("Passwd", user.token()), entry("accountType", "GOOGLE")));
        assertThat(login.status()).isEqualTo(200);
        Map<String, String> tokens = new HashMap<>();
        for (String line : login.body().split("\n")) {
            if (!line.isEmpty()) {
                String[] pair = line.split("=", -1);
                assertThat(pair).as("dict(x.split('=')) needs exactly one '=' per line: " + line).hasSize(2);
                tokens.put(pair[0], pair[1]);
            }
        }
        String auth = tokens.get("Auth");
        String t = reader.ok("/reader/api/0/token", auth).body();
        String userId = reader.ok("/reader/api/0/user-info", auth).json().path("userId").asString();
        assertThat(userId).isNotBlank();

        JsonNode unread = reader.ok("/reader/api/0/unread-count?output=json", auth).json().path("unreadcounts");
        JsonNode subs = reader.ok("/reader/api/0/subscription/list?output=json", auth).json().path("subscriptions");
        String feedId = subs.get(0).path("id").asString();
        assertThat(feedId).isEqualTo("feed/" + url);
        assertThat(StreamSupport.stream(unread.spliterator(), false).filter(c -> c.path("id").asString().equals(feedId))
                .findFirst().orElseThrow().path("count").asLong()).isEqualTo(3);

        // Feed.fetchUrl = FEED_URL + quote(id): "feed/http%3A//feeds.example.test%3A8080/…/feed.xml".
        String fetchUrl = "/reader/api/0/stream/contents/feed/http%3A//feeds.example.test%3A8080/" + url.substring(31);
        JsonNode page = reader.ok(fetchUrl + "?xt=" + READ + "&n=2", auth).json();
        assertThat(page.path("items").size()).isEqualTo(2);
        String continuation = page.path("continuation").asString();
        JsonNode rest = reader.ok(fetchUrl + "?xt=" + READ + "&c=" + continuation + "&n=2", auth).json();
        List<String> seen = new ArrayList<>();
        page.path("items").forEach(item -> seen.add(item.path("id").asString()));
        rest.path("items").forEach(item -> seen.add(item.path("id").asString()));
        assertThat(seen.stream().map(ItemIds::parse).toList()).containsExactlyInAnyOrderElementsOf(items);
        // The special feeds: CONTENT_BASE_URL + quote("user/-/state/com.google/reading-list").
        assertThat(reader.ok("/reader/api/0/stream/contents/user/-/state/com.google/reading-list?n=20", auth).json()
                .path("items").size()).isEqualTo(3);

        // Item.markRead → addItemTag → _modifyItemTag: {i, a, ac: edit-tags} plus T.
        reader.ok("/reader/api/0/edit-tag", auth, List.of(entry("i", seen.getFirst()), entry("a", READ),
                entry("ac", "edit-tags"), entry("T", t)));
        assertThat(api.get("/api/v1/unread", user.token()).json().path("total").asLong()).isEqualTo(2);
        // markFeedAsRead: {s: feed.id} plus T.
        assertThat(reader.ok("/reader/api/0/mark-all-as-read", auth, List.of(entry("s", feedId), entry("T", t))).body())
                .isEqualTo("OK");
        assertThat(api.get("/api/v1/unread", user.token()).json().path("total").asLong()).isZero();
    }

    /**
     * NetNewsWire's FreshRSS account (github.com/Ranchero-Software/NetNewsWire):
     * Modules/Account/Sources/Account/ReaderAPI/ReaderAPICaller.swift appends each endpoint
     * ({@code /accounts/ClientLogin}, {@code /reader/api/0/…}) to the API URL typed, which for
     * FreshRSS is {@code https://host/api/greader.php} (the placeholder in
     * Mac/Preferences/Accounts/AccountsReaderAPIWindowController.swift); URLRequest+ReaderAPI.swift
     * signs in with a form POST of {@code Email} and {@code Passwd}; item ids go out as
     * {@code i=tag:google.com,2005:reader/item/%.16llx} ({@code itemIDParameter}).
     */
    @Test
    void netNewsWireFreshRssAccount() {
        TestUser user = api.newUser("nnwfresh");
        long source = deliveries.feed();
        deliveries.follow(user, source);
        List<Long> items = deliveries.deliver(source, List.of(user), entry(MediaType.TEXT), entry(MediaType.TEXT));
        String endpoint = "/api/greader.php";

        ApiResponse login = api.send(api.builder(endpoint + "/accounts/ClientLogin", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(ReaderClient.encode(List.of(entry("Email", user.username()),
                        entry("Passwd", user.token()))))));
        assertThat(login.status()).as(login.toString()).isEqualTo(200);
        String auth = login.body().lines().map(line -> line.split("=")).filter(items2 -> items2.length == 2)
                .filter(pair -> pair[0].equals("Auth")).findFirst().orElseThrow()[1];
        String t = reader.ok(endpoint + "/reader/api/0/token", auth).body().strip();
        reader.ok(endpoint + "/reader/api/0/tag/list?output=json", auth);
        assertThat(reader.ok(endpoint + "/reader/api/0/subscription/list?output=json", auth).json().path("subscriptions")
                .size()).isEqualTo(1);
        JsonNode unread = reader.ok(endpoint + "/reader/api/0/stream/items/ids?n=1000&output=json"
                + "&s=user/-/state/com.google/reading-list&xt=" + READ, auth).json().path("itemRefs");
        List<Long> ids = new ArrayList<>();
        unread.forEach(ref -> ids.add(Long.parseLong(ref.path("id").asString())));
        assertThat(ids).containsExactlyInAnyOrderElementsOf(items);
        assertThat(reader.ok(endpoint + "/reader/api/0/stream/items/ids?n=1000&output=json&s=user/-/state/com.google/starred",
                auth).json().path("itemRefs").size()).isZero();

        String idsToFetch = String.join("&", ids.stream().map(id -> "i=tag:google.com,2005:reader/item/"
                + String.format("%016x", id)).toList());
        ApiResponse contents = api.send(api.builder(endpoint + "/reader/api/0/stream/items/contents", null)
                .header("Authorization", "GoogleLogin auth=" + auth)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("T=" + t + "&output=json&" + idsToFetch)));
        assertThat(contents.status()).as(contents.toString()).isEqualTo(200);
        assertThat(contents.json().path("items").size()).isEqualTo(2);

        ApiResponse marked = api.send(api.builder(endpoint + "/reader/api/0/edit-tag", null)
                .header("Authorization", "GoogleLogin auth=" + auth)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("T=" + t + "&i=tag:google.com,2005:reader/item/"
                        + String.format("%016x", ids.getFirst()) + "&a=" + READ)));
        assertThat(marked.status()).as(marked.toString()).isEqualTo(200);
        assertThat(api.get("/api/v1/unread", user.token()).json().path("total").asLong()).isEqualTo(1);
    }

    /**
     * ReadYou's FreshRSS account (github.com/ReadYouApp/ReadYou):
     * app/src/main/java/me/ash/reader/ui/page/settings/accounts/addition/AddFreshRSSAccountDialog.kt
     * takes {@code https://host/api/greader.php} and adds a trailing slash;
     * app/src/main/java/me/ash/reader/infrastructure/rss/provider/greader/GoogleReaderAPI.kt then
     * calls {@code serverUrl + "accounts/ClientLogin"} (a form with {@code output=json}, {@code client},
     * {@code accountType}, {@code service}), {@code reader/api/0/token}, and every call as
     * {@code serverUrl + query + "?output=json&k=v…"} with values unencoded; POSTs add {@code T}
     * ({@code getReadItemIds} uses {@code s=reading-list&it=…/read}).
     */
    @Test
    void readYouFreshRssAccount() {
        TestUser user = api.newUser("readyoufresh");
        long source = deliveries.feed();
        deliveries.follow(user, source);
        List<Long> items = deliveries.deliver(source, List.of(user), entry(MediaType.TEXT), entry(MediaType.TEXT));
        String serverUrl = "/api/greader.php/";

        ApiResponse login = api.send(api.builder(serverUrl + "accounts/ClientLogin", null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(ReaderClient.encode(List.of(entry("output", "json"),
                        entry("Email", user.username()), entry("Passwd", user.token()), entry("client", "ReadYou"),
                        entry("accountType", "HOSTED_OR_GOOGLE"), entry("service", "reader"))))));
        assertThat(login.status()).as(login.toString()).isEqualTo(200);
        String auth = login.json().path("Auth").asString();
        String t = reader.ok(serverUrl + "reader/api/0/token", auth).body().strip();
        assertThat(reader.ok(serverUrl + "reader/api/0/user-info?output=json", auth).json().path("userName").asString())
                .isEqualTo(user.username());
        String feedId = reader.ok(serverUrl + "reader/api/0/subscription/list?output=json", auth).json()
                .path("subscriptions").get(0).path("id").asString();
        long since = java.time.Instant.now().minus(java.time.Duration.ofDays(30)).getEpochSecond();
        JsonNode unread = reader.ok(serverUrl + "reader/api/0/stream/items/ids?output=json&s=" + feedId
                + "&xt=" + READ + "&n=10000&ot=" + since, auth).json().path("itemRefs");
        assertThat(unread.size()).isEqualTo(2);
        List<Map.Entry<String, String>> form = new ArrayList<>(List.of(entry("T", t)));
        unread.forEach(ref -> form.add(entry("i", ref.path("id").asString())));
        assertThat(reader.ok(serverUrl + "reader/api/0/stream/items/contents?output=json", auth, form).json()
                .path("items").size()).isEqualTo(2);
        reader.ok(serverUrl + "reader/api/0/edit-tag?output=json", auth, List.of(entry("i", Long.toString(items.getFirst())),
                entry("a", READ), entry("T", t)));
        JsonNode read = reader.ok(serverUrl + "reader/api/0/stream/items/ids?output=json&s=user/-/state/com.google/reading-list"
                + "&it=" + READ + "&ot=" + since + "&n=10000", auth).json().path("itemRefs");
        assertThat(read.size()).isEqualTo(1);
        assertThat(read.get(0).path("id").asString()).isEqualTo(Long.toString(items.getFirst()));
        assertThat(api.get("/api/v1/unread", user.token()).json().path("total").asLong()).isEqualTo(1);
    }

    /**
     * RSS Guard (github.com/martinrotter/rssguard), src/librssguard-greader/src/greadernetwork.cpp
     * and definitions.h: {@code sanitizedBaseUrl()} adds a slash and, for its default FreshRSS
     * service, {@code api/greader.php/}; {@code clientLogin} posts {@code Email=…&Passwd=…};
     * {@code GREADER_API_STREAM_CONTENTS} puts the stream id in the path, raw for FreshRSS and
     * percent-encoded for the other services; {@code GREADER_API_ITEM_IDS} asks {@code n=200000}
     * with {@code s} percent-encoded; contents are posted as {@code i=…} to
     * {@code stream/items/contents?output=json&n=200000}; marks as {@code a=…/read&i=…}.
     */
    @Test
    void rssGuardFreshRssAndOtherServices() {
        TestUser user = api.newUser("rssguard");
        String url = "http://feeds.example.test:8080/" + UUID.randomUUID() + "/feed.xml";
        long source = sources.feed(url).id();
        deliveries.follow(user, source);
        List<Long> items = deliveries.deliver(source, List.of(user), entry(MediaType.TEXT), entry(MediaType.TEXT));
        String streamId = "feed/" + url;
        String encoded = java.net.URLEncoder.encode(streamId, java.nio.charset.StandardCharsets.UTF_8);
        for (String base : List.of("/api/greader.php/", "/")) {
            boolean freshRss = base.length() > 1;
            ApiResponse login = api.send(api.builder(base + "accounts/ClientLogin", null)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("Email=" + user.username() + "&Passwd=" + user.token())));
            assertThat(login.status()).as(base + " " + login).isEqualTo(200);
            String auth = login.body().lines().filter(line -> line.startsWith("Auth=")).findFirst().orElseThrow().substring(5);
            reader.ok(base + "reader/api/0/user-info?output=json", auth);
            reader.ok(base + "reader/api/0/tag/list?output=json", auth);
            assertThat(reader.ok(base + "reader/api/0/subscription/list?output=json", auth).json().path("subscriptions")
                    .get(0).path("id").asString()).isEqualTo(streamId);

            JsonNode contents = reader.ok(base + "reader/api/0/stream/contents/" + (freshRss ? streamId : encoded)
                    + "?output=json&n=100&xt=" + READ, auth).json();
            assertThat(contents.path("items").size()).as(base).isEqualTo(freshRss ? 2 : 1);

            JsonNode ids = reader.ok(base + "reader/api/0/stream/items/ids?output=json&n=200000&s="
                    + java.net.URLEncoder.encode("user/-/state/com.google/reading-list", java.nio.charset.StandardCharsets.UTF_8)
                    + "&xt=" + READ, auth).json().path("itemRefs");
            List<Map.Entry<String, String>> form = new ArrayList<>();
            ids.forEach(ref -> form.add(entry("i", ref.path("id").asString())));
            JsonNode fetched = reader.ok(base + "reader/api/0/stream/items/contents?output=json&n=200000", auth, form).json();
            assertThat(fetched.path("items").size()).isEqualTo(freshRss ? 2 : 1);

            String first = fetched.path("items").get(0).path("id").asString();
            ApiResponse marked = api.send(api.builder(base + "reader/api/0/edit-tag", null)
                    .header("Authorization", "GoogleLogin auth=" + auth)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("a=" + READ + "&i=" + first)));
            assertThat(marked.status()).as(marked.toString()).isEqualTo(200);
            assertThat(api.get("/api/v1/unread", user.token()).json().path("total").asLong()).isEqualTo(freshRss ? 1 : 0);
        }
        assertThat(items).hasSize(2);
    }
}
