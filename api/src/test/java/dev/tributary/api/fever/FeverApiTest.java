package dev.tributary.api.fever;

import static dev.tributary.api.timeline.Deliveries.entry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** The Fever API as Reeder-style apps call it: POST /fever/?api&… with the api_key form field. */
@ApiTest
class FeverApiTest {

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired JdbcClient jdbc;
    private ApiClient api;
    private Deliveries deliveries;
    private TestUser alice;
    private TestUser bob;

    @BeforeEach
    void twoReaders() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
        alice = api.newUser("fever");
        bob = api.newUser("nofever");
    }

    @Test
    void aReederStyleSyncAgreesWithTheRestApi() {
        String key = feverKey(alice);
        long news = deliveries.feed();
        long blogs = deliveries.feed();
        deliveries.follow(alice, news);
        deliveries.follow(alice, blogs);
        deliveries.follow(bob, news);
        List<Long> fromNews = deliveries.deliver(news, List.of(alice, bob), entry(MediaType.TEXT), entry(MediaType.TEXT));
        List<Long> fromBlogs = deliveries.deliver(blogs, List.of(alice), entry(MediaType.TEXT));
        String folder = api.post("/api/v1/folders", alice.token(), Map.of("name", "Tech")).json().path("id").asString();
        assertThat(api.send("PATCH", "/api/v1/subscriptions/" + subscriptionOf(alice, news), alice.token(),
                Map.of("title", "My news", "folder_ids", List.of(folder)), "application/json").status()).isEqualTo(200);

        JsonNode auth = fever("", key, Map.of()).json();
        assertThat(auth.path("api_version").asInt()).isEqualTo(3);
        assertThat(auth.path("auth").asInt()).isEqualTo(1);
        assertThat(auth.path("last_refreshed_on_time").asLong()).isPositive();

        JsonNode groups = fever("&groups", key, Map.of()).json();
        assertThat(groups.path("groups").get(0).path("id").asLong()).isEqualTo(fv(Long.parseLong(folder)));
        assertThat(groups.path("groups").get(0).path("title").asString()).isEqualTo("Tech");
        assertThat(groups.path("feeds_groups").get(0).path("feed_ids").asString()).isEqualTo(String.valueOf(fv(news)));

        JsonNode feeds = fever("&feeds", key, Map.of()).json().path("feeds");
        assertThat(feeds.size()).isEqualTo(2);
        JsonNode newsFeed = find(feeds, fv(news));
        assertThat(newsFeed.path("title").asString()).isEqualTo("My news");
        assertThat(newsFeed.path("url").asString()).startsWith("https://feeds.example.test/");
        assertThat(newsFeed.path("is_spark").asInt()).isZero();

        List<Long> all = List.of(fromNews.get(0), fromNews.get(1), fromBlogs.get(0));
        assertThat(idList(fever("&unread_item_ids", key, Map.of()).json().path("unread_item_ids").asString()))
                .containsExactlyInAnyOrderElementsOf(fv(all));

        JsonNode items = fever("&items&with_ids=" + join(fv(all)) + ",777,abc", key, Map.of()).json();
        assertThat(items.path("items").size()).isEqualTo(3);
        assertThat(items.path("total_items").asInt()).isEqualTo(3);
        JsonNode first = find(items.path("items"), fv(fromNews.get(0)));
        assertThat(first.path("feed_id").asLong()).isEqualTo(fv(news));
        assertThat(first.path("is_read").asInt()).isZero();
        assertThat(first.path("is_saved").asInt()).isZero();
        assertThat(first.path("title").asString()).startsWith("Title ");
        assertThat(first.path("html").asString()).isEqualTo("<p>Summary</p>");
        assertThat(first.path("created_on_time").asLong()).isPositive();

        JsonNode ascending = fever("&items&since_id=0", key, Map.of()).json().path("items");
        assertThat(ids(ascending)).containsExactlyElementsOf(fv(all));
        JsonNode descending = fever("&items&max_id=" + fv(fromBlogs.get(0)), key, Map.of()).json().path("items");
        assertThat(ids(descending)).containsExactly(fv(fromNews.get(1)), fv(fromNews.get(0)));

        JsonNode read = fever("", key, Map.of("mark", "item", "as", "read", "id", String.valueOf(fv(fromNews.get(0))))).json();
        assertThat(idList(read.path("unread_item_ids").asString())).containsExactlyInAnyOrder(fv(fromNews.get(1)), fv(fromBlogs.get(0)));
        JsonNode saved = fever("", key, Map.of("mark", "item", "as", "saved", "id", String.valueOf(fv(fromBlogs.get(0))))).json();
        assertThat(saved.path("saved_item_ids").asString()).isEqualTo(String.valueOf(fv(fromBlogs.get(0))));
        assertThat(api.get("/api/v1/items/" + fromBlogs.get(0) + "/star", alice.token()).json().path("starred").asBoolean()).isTrue();
        JsonNode after = find(fever("&items&with_ids=" + join(fv(all)), key, Map.of()).json().path("items"), fv(fromBlogs.get(0)));
        assertThat(after.path("is_saved").asInt()).isEqualTo(1);

        String now = String.valueOf(Instant.now().getEpochSecond());
        fever("", key, Map.of("mark", "feed", "as", "read", "id", String.valueOf(fv(news)), "before", now));
        assertThat(idList(fever("&unread_item_ids", key, Map.of()).json().path("unread_item_ids").asString()))
                .containsExactly(fv(fromBlogs.get(0)));
        JsonNode unread = api.get("/api/v1/unread", alice.token()).json();
        assertThat(unread.path("total").asLong()).isEqualTo(1);
        assertThat(unread.path("by_source").path(String.valueOf(blogs)).asLong()).isEqualTo(1);
        assertThat(api.get("/api/v1/unread", bob.token()).json().path("total").asLong()).as("bob's own marks").isEqualTo(2);

        fever("", key, Map.of("mark", "group", "as", "read", "id", "0", "before", now));
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isZero();
    }

    @Test
    void everyIdIsExactInADoubleAndEveryFeedHasAName() {
        String key = feverKey(alice);
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        NewItem[] fifty = new NewItem[50];
        for (int i = 0; i < fifty.length; i++) {
            fifty[i] = entry(MediaType.TEXT);
        }
        List<Long> published = deliveries.deliver(feed, List.of(alice), fifty);
        api.post("/api/v1/posts", alice.token(), Map.of("text", "my own post"));
        String folder = api.post("/api/v1/folders", alice.token(), Map.of("name", "All")).json().path("id").asString();
        assertThat(Long.parseLong(folder)).as("Tributary's ids need more than a double's 53 bits").isGreaterThan(FeverIds.MAX);

        // What JSON.parse does to every number: a double. Each id must survive it unchanged and stay distinct.
        List<Long> seen = new ArrayList<>();
        JsonNode all = fever("&groups&feeds&unread_item_ids&items&since_id=0", key, Map.of()).json();
        all.path("groups").forEach(group -> seen.add(group.path("id").asLong()));
        all.path("feeds").forEach(f -> {
            seen.add(f.path("id").asLong());
            assertThat(f.path("title").asString()).as("feed %s", f).isNotBlank();
        });
        all.path("items").forEach(item -> {
            seen.add(item.path("id").asLong());
            seen.add(item.path("feed_id").asLong());
        });
        seen.addAll(idList(all.path("unread_item_ids").asString()));
        for (long id : seen) {
            assertThat((long) (double) id).as("id %d through a double", id).isEqualTo(id);
            assertThat(id).isBetween(1L, FeverIds.MAX);
        }
        assertThat(idList(all.path("unread_item_ids").asString())).doesNotHaveDuplicates().containsAll(fv(published));
        assertThat(all.path("items").size()).isEqualTo(50);

        // Marks take the ids back: every one of the fifty, one by one.
        long unreadBefore = api.get("/api/v1/unread", alice.token()).json().path("total").asLong();
        for (long item : published) {
            fever("", key, Map.of("mark", "item", "as", "read", "id", String.valueOf((long) (double) fv(item))));
        }
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).isEqualTo(unreadBefore - 50);
    }

    @Test
    void aBadKeyOrARevokedTokenAnswersAuthZero() {
        assertThat(fever("", "0123456789abcdef0123456789abcdef", Map.of()).json().path("auth").asInt()).isZero();
        ApiResponse missing = fever("&items", null, Map.of());
        assertThat(missing.status()).isEqualTo(200);
        assertThat(missing.json().path("auth").asInt()).isZero();
        assertThat(missing.json().path("items").isMissingNode()).isTrue();
        String plainTokenKey = md5(alice.username() + ":" + alice.token());
        assertThat(fever("", plainTokenKey, Map.of()).json().path("auth").asInt()).as("a token not enabled for Fever").isZero();
        String passwordKey = md5(alice.username() + ":" + alice.password());
        assertThat(fever("", passwordKey, Map.of()).json().path("auth").asInt()).as("the account password").isZero();

        ApiResponse created = createFeverToken(alice);
        String key = md5(alice.username() + ":" + created.json().path("token").asString());
        assertThat(fever("", key, Map.of()).json().path("auth").asInt()).isEqualTo(1);
        assertThat(api.delete("/api/v1/tokens/" + created.json().path("id").asString(), alice.token()).status()).isEqualTo(204);
        assertThat(fever("&unread_item_ids", key, Map.of()).json().path("auth").asInt()).isZero();
    }

    @Test
    void noFeverKeyIsMadeForATokenThatCannotMark() {
        for (String scopes : List.of("[\"read\"]", "[\"write\"]", "[\"read\",\"account\"]")) {
            ApiResponse refused = api.send(api.builder("/api/v1/tokens", null)
                    .header("Authorization", ApiClient.basic(alice.username(), alice.password()))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Reeder\",\"scopes\":" + scopes + ",\"fever\":true}")));

            assertThat(refused.status()).as(scopes + ": " + refused.body()).isEqualTo(422);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.json().path("reason").asString()).isEqualTo("fever_needs_read_and_write");
            assertThat(refused.json().path("detail").asString()).contains("'write'");
        }
        assertThat(api.get("/api/v1/tokens", alice.token()).json().valueStream().filter(t -> t.path("fever").asBoolean()))
                .as("no Fever token was made").isEmpty();
        assertThat(api.createToken(alice.username(), alice.password(), "read only, no Fever", "read"))
                .as("a read-only token without Fever is still fine").isNotBlank();
    }

    @Test
    void aMarkThroughAReadOnlyFeverKeyFromBeforeIsAnErrorTheAppSeesAndMarksNothing() {
        long news = deliveries.feed();
        deliveries.follow(alice, news);
        List<Long> delivered = deliveries.deliver(news, List.of(alice), entry(MediaType.TEXT));
        String key = feverKey(alice);
        // A key made before Fever tokens needed 'write': its token's scopes narrowed to read, as stored then.
        jdbc.sql("UPDATE personal_tokens SET scopes = 'read' WHERE user_id = :user AND fever_key_hash IS NOT NULL")
                .param("user", alice.numericId()).update();

        ApiResponse marked = api.send(api.builder("/fever/?api", null).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("api_key=" + key + "&mark=item&as=read&id=" + fv(delivered.getFirst()))));

        assertThat(marked.status()).as(marked.body()).isEqualTo(403);
        assertThat(marked.body()).doesNotContain("\"auth\":1").contains("write");
        assertThat(api.get("/api/v1/unread", alice.token()).json().path("total").asLong()).as("nothing marked").isEqualTo(1);
        ApiResponse read = fever("&unread_item_ids", key, Map.of());
        assertThat(read.json().path("auth").asInt()).as("reading still works").isEqualTo(1);
        assertThat(read.json().path("unread_item_ids").asString()).isEqualTo(String.valueOf(fv(delivered.getFirst())));
    }

    @Test
    void otherPeoplesItemsAndHostileInputStayOut() {
        String key = feverKey(alice);
        long secret = deliveries.feed();
        deliveries.follow(bob, secret);
        List<Long> bobs = deliveries.deliver(secret, List.of(bob), entry(MediaType.TEXT));
        String hundred = Arrays.stream(new int[100]).mapToObj(i -> String.valueOf(fv(bobs.getFirst()))).collect(Collectors.joining(","));

        assertThat(fever("&items&with_ids=" + fv(bobs.getFirst()), key, Map.of()).json().path("items").size()).isZero();
        assertThat(fever("&items&with_ids=" + hundred, key, Map.of()).json().path("items").size()).isZero();
        assertThat(fever("&unread_item_ids", key, Map.of()).json().path("unread_item_ids").asString()).isEmpty();
        fever("", key, Map.of("mark", "item", "as", "read", "id", String.valueOf(fv(bobs.getFirst()))));
        fever("", key, Map.of("mark", "item", "as", "saved", "id", String.valueOf(fv(bobs.getFirst()))));
        fever("", key, Map.of("mark", "feed", "as", "read", "id", String.valueOf(fv(secret)), "before", "99999999999"));
        assertThat(api.get("/api/v1/unread", bob.token()).json().path("total").asLong()).isEqualTo(1);
        assertThat(api.get("/api/v1/items/" + bobs.getFirst() + "/star", alice.token()).json().path("starred").asBoolean())
                .as("not in her inbox, so not saved").isFalse();

        for (String query : List.of("&items&since_id=abc", "&items&max_id=-5", "&items&with_ids=,,x,1e9,-1",
                "&items&since_id=99999999999999999999999", "&items&with_ids=" + "1,".repeat(1000))) {
            ApiResponse answer = fever(query, key, Map.of());
            assertThat(answer.status()).as(query).isEqualTo(200);
            assertThat(answer.json().path("auth").asInt()).as(query).isEqualTo(1);
        }
        for (Map<String, String> mark : List.of(Map.of("mark", "nope", "as", "read", "id", "1"),
                Map.of("mark", "item", "as", "sideways", "id", "1"), Map.of("mark", "item", "as", "read", "id", "x"),
                Map.of("mark", "feed", "as", "read", "id", "1", "before", "soon"), Map.of("mark", "group", "as", "read"))) {
            ApiResponse answer = fever("", key, mark);
            assertThat(answer.status()).as(mark.toString()).isEqualTo(200);
            assertThat(answer.json().path("auth").asInt()).as(mark.toString()).isEqualTo(1);
        }
        assertThat(api.get("/api/v1/unread", bob.token()).json().path("total").asLong()).isEqualTo(1);
    }

    private ApiResponse fever(String flags, String apiKey, Map<String, String> fields) {
        StringBuilder form = new StringBuilder();
        if (apiKey != null) {
            form.append("api_key=").append(apiKey);
        }
        fields.forEach((name, value) -> form.append(form.isEmpty() ? "" : "&").append(name).append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
        ApiResponse response = api.send(api.builder("/fever/?api" + flags, null)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form.toString())));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response;
    }

    private String feverKey(TestUser user) {
        return md5(user.username() + ":" + createFeverToken(user).json().path("token").asString());
    }

    private ApiResponse createFeverToken(TestUser user) {
        ApiResponse created = api.send(api.builder("/api/v1/tokens", null)
                .header("Authorization", ApiClient.basic(user.username(), user.password()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"name\":\"Reeder\",\"scopes\":[\"read\",\"write\"],\"fever\":true}")));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created;
    }

    private String subscriptionOf(TestUser user, long sourceId) {
        for (JsonNode sub : api.get("/api/v1/subscriptions", user.token()).json()) {
            if (sub.path("source").path("id").asString().equals(String.valueOf(sourceId))
                    || sub.path("source_id").asString().equals(String.valueOf(sourceId))) {
                return sub.path("id").asString();
            }
        }
        throw new AssertionError("no subscription to " + sourceId);
    }

    private static JsonNode find(JsonNode array, long id) {
        for (JsonNode node : array) {
            if (node.path("id").asLong() == id) {
                return node;
            }
        }
        throw new AssertionError(id + " not in " + array);
    }

    /** The Fever id of a Tributary id: what an app is shown (FeverIds). */
    private static long fv(long id) {
        return FeverIds.of(id);
    }

    private static List<Long> fv(List<Long> ids) {
        return FeverIds.of(ids);
    }

    private static List<Long> ids(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false).map(n -> n.path("id").asLong()).toList();
    }

    private static List<Long> idList(String commaSeparated) {
        return commaSeparated.isEmpty() ? List.of() : Arrays.stream(commaSeparated.split(",")).map(Long::parseLong).toList();
    }

    private static String join(List<Long> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static String md5(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
