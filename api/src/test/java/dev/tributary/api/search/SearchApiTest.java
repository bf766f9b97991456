package dev.tributary.api.search;

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
import dev.tributary.storage.testing.Await;
import dev.tributary.storage.testing.DeferredIndexing;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

@ApiTest
class SearchApiTest {

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
        alice = api.newUser("seeker");
        bob = api.newUser("bystander");
    }

    private static NewItem entry(String title, String summary, MediaType type, String... tags) {
        String guid = UUID.randomUUID().toString();
        return new NewItem(guid, title, summary, "https://example.test/" + guid, null, type, List.of(), List.of(tags),
                Instant.now().minus(1, ChronoUnit.HOURS));
    }

    private static String search(String q, String more) {
        return "/api/v1/search?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8) + more;
    }

    @Test
    void findsTheSeedFeedsChineseAndLatinTitlesInTheCallersReachOnly() {
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        String word = "w" + UUID.randomUUID().toString().substring(0, 8);
        List<Long> ids = deliveries.publish(feed, entry("Java垃圾回收调优 " + word, "<p>G1</p>", MediaType.TEXT),
                entry("MemcacheDB, Tokyo Tyrant, Redis performance test " + word, "<p>kv</p>", MediaType.TEXT));
        DeferredIndexing.awaitDrained(jdbc);

        ApiResponse cjk = api.get(search("垃圾回收 " + word, ""), alice.token());
        assertThat(cjk.status()).isEqualTo(200);
        assertThat(cjk.header("Search-Truncated")).as("a rare word is read whole").isEqualTo("false");
        assertThat(Deliveries.ids(cjk.json())).containsExactly(String.valueOf(ids.get(0)));
        assertThat(cjk.json().get(0).path("title").asString()).isEqualTo("Java垃圾回收调优 " + word);
        assertThat(Deliveries.ids(api.get(search("Redis " + word, ""), alice.token()).json()))
                .containsExactly(String.valueOf(ids.get(1)));
        assertThat(api.get(search(word, ""), bob.token()).json().size()).as("bob follows nothing").isZero();
        assertThat(api.get(search(word, ""), null).status()).isEqualTo(401);
    }

    @Test
    void aGroupsPostsAreNotFoundByOutsiders() {
        String word = "g" + UUID.randomUUID().toString().substring(0, 8);
        String group = api.post("/api/v1/groups", alice.token(), Map.of("name", "Searchers")).json().path("id").asString();
        String post = api.post("/api/v1/groups/" + group + "/posts", alice.token(), Map.of("text", "plans " + word))
                .json().path("id").asString();
        DeferredIndexing.awaitDrained(jdbc);

        assertThat(Deliveries.ids(api.get(search(word, ""), alice.token()).json())).containsExactly(post);
        assertThat(api.get(search(word, ""), bob.token()).json().size()).isZero();
    }

    @Test
    void pagesByTheCursorInTheLinkHeaderAndFilters() {
        long feed = deliveries.feed();
        long other = deliveries.feed();
        deliveries.follow(alice, feed);
        deliveries.follow(alice, other);
        String word = "p" + UUID.randomUUID().toString().substring(0, 8);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.addAll(deliveries.publish(feed, entry("note " + i, word + " " + i, i == 4 ? MediaType.VIDEO : MediaType.TEXT,
                    i == 3 ? "Picked" : "plain")));
        }
        long elsewhere = deliveries.publish(other, entry(word + " title", "x", MediaType.TEXT)).getFirst();
        DeferredIndexing.awaitDrained(jdbc);

        List<String> seen = new ArrayList<>();
        ApiResponse page = api.get(search(word, "&limit=2"), alice.token());
        seen.addAll(Deliveries.ids(page.json()));
        assertThat(seen).as("a title hit ranks first").first().isEqualTo(String.valueOf(elsewhere));
        int pages = 1;
        while (page.header("Link") != null && pages < 10) {
            String link = page.header("Link");
            assertThat(link).endsWith("rel=\"next\"").contains("limit=2").contains("cursor=");
            String url = link.substring(1, link.indexOf('>'));
            page = api.get(url.substring(url.indexOf("/api/")), alice.token());
            assertThat(page.status()).isEqualTo(200);
            seen.addAll(Deliveries.ids(page.json()));
            pages++;
        }
        assertThat(pages).isEqualTo(3);
        assertThat(seen).doesNotHaveDuplicates().hasSize(6);

        assertThat(Deliveries.ids(api.get(search(word, "&media=video"), alice.token()).json()))
                .containsExactly(String.valueOf(ids.get(4)));
        assertThat(Deliveries.ids(api.get(search(word, "&tag=picked"), alice.token()).json()))
                .containsExactly(String.valueOf(ids.get(3)));
        assertThat(Deliveries.ids(api.get(search(word, "&source_id=" + other), alice.token()).json()))
                .containsExactly(String.valueOf(elsewhere));
        String folder = api.post("/api/v1/folders", alice.token(), Map.of("name", "Only other " + word)).json().path("id").asString();
        assertThat(Deliveries.ids(api.get(search(word, "&folder_id=" + folder), alice.token()).json())).isEmpty();
        assertThat(api.get(search(word, "&folder_id=" + folder), bob.token()).status()).as("another's folder").isEqualTo(404);
        deliveries.awaitInTimeline(alice, ids);
        api.post("/api/v1/markers", alice.token(), Map.of("up_to_id", String.valueOf(ids.get(4)), "source_id", String.valueOf(feed)));
        assertThat(Deliveries.ids(api.get(search(word, "&unread=true"), alice.token()).json()))
                .containsExactly(String.valueOf(elsewhere));
    }

    @Test
    void emptyOversizeAndGarbageQueriesAreProblems() {
        assertProblem(api.get("/api/v1/search", alice.token()), "q", "empty_query");
        assertProblem(api.get(search("   ", ""), alice.token()), "q", "empty_query");
        assertProblem(api.get(search("🚀 !!! ¿?", ""), alice.token()), "q", "empty_query");
        assertProblem(api.get(search("x".repeat(501), ""), alice.token()), "q", "query_too_long");
        assertProblem(api.get(search("a b c d e f g h i j k l m n o p q", ""), alice.token()), "q", "too_many_terms");
        assertProblem(api.get(search("redis", "&cursor=abc"), alice.token()), "cursor", null);
        assertProblem(api.get(search("redis", "&cursor=1.0"), alice.token()), "cursor", null);
        assertProblem(api.get(search("redis", "&limit=101"), alice.token()), "limit", null);
        assertProblem(api.get(search("redis", "&media=pictures"), alice.token()), "media", null);
        assertProblem(api.get(search("redis", "&unread=yes"), alice.token()), "unread", null);
        assertProblem(api.get(search("redis", "&source_id=x"), alice.token()), "source_id", null);
        assertProblem(api.get(search("redis", "&source_id=1&folder_id=2"), alice.token()), "folder_id", null);
        assertThat(api.get(search("redis\uFFFF\uD83D", ""), alice.token()).status()).isEqualTo(200);

        // A 1 MB query string is refused before any handler, as a problem, never a 5xx.
        ApiResponse huge = api.get(search("垃".repeat(1_000_000 / 9), ""), alice.token());
        assertThat(huge.status()).isBetween(400, 499);
        assertThat(huge.contentType()).startsWith("application/problem+json");
        // The same megabyte in a form body of a GET is not read as the query: q is still missing.
        ApiResponse body = api.send(api.builder("/api/v1/search", alice.token())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .method("GET", HttpRequest.BodyPublishers.ofString("q=" + "x".repeat(1_000_000))));
        assertThat(body.status()).isBetween(400, 499);
    }

    @Test
    void oneStoryThreeFeedsCarryIsOneHitWithItsReadAndStarredState() {
        long[] feeds = {deliveries.feed(), deliveries.feed(), deliveries.feed()};
        String word = "s" + UUID.randomUUID().toString().substring(0, 8);
        String url = "https://stories.example/" + word + "/post";
        List<Long> copies = new ArrayList<>();
        for (long feed : feeds) {
            deliveries.follow(alice, feed);
            copies.addAll(deliveries.publish(feed, new NewItem(UUID.randomUUID().toString(), "Running feed readers " + word,
                    "<p>A café for aggregators</p>", url, null, MediaType.TEXT, List.of(), List.of(), Instant.now().minus(2, ChronoUnit.HOURS))));
        }
        Await.until("the story once in the timeline, also in the two other feeds", () -> api.get("/api/v1/timelines/home?limit=100",
                alice.token()).json().valueStream().filter(item -> copies.contains(Long.parseLong(item.path("id").asString())))
                .anyMatch(item -> item.path("also_in").size() == 2));
        DeferredIndexing.awaitDrained(jdbc);

        for (String q : List.of(word, "run " + word, "\"feed reader\" " + word, "cafe aggregat* " + word, "CAFÉS " + word)) {
            JsonNode hits = api.get(search(q, ""), alice.token()).json();
            assertThat(hits.size()).as(q).isEqualTo(1);
            assertThat(copies).contains(Long.parseLong(hits.get(0).path("id").asString()));
            assertThat(hits.get(0).path("also_in").size()).as("the hit names the other feeds").isEqualTo(2);
            assertThat(hits.get(0).path("read").asBoolean()).isFalse();
            assertThat(hits.get(0).path("starred").asBoolean()).isFalse();
        }
        assertThat(api.get(search("\"reader feed\" " + word, ""), alice.token()).json().size()).as("a phrase keeps its order").isZero();

        String id = api.get(search(word, ""), alice.token()).json().get(0).path("id").asString();
        assertThat(api.post("/api/v1/items/" + id + "/read", alice.token(), null).status()).isLessThan(300);
        assertThat(api.post("/api/v1/items/" + id + "/star", alice.token(), null).status()).isLessThan(300);
        JsonNode after = api.get(search(word, ""), alice.token()).json();
        assertThat(Deliveries.ids(after)).containsExactly(id);
        assertThat(after.get(0).path("read").asBoolean()).isTrue();
        assertThat(after.get(0).path("starred").asBoolean()).isTrue();
    }

    @Test
    void hostileQueriesAreProblemsThatSayWhatIsAllowedNeverErrors() {
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("*", "misplaced_wildcard");
        refused.put("* * *", "misplaced_wildcard");
        refused.put("\"feed read*\"", "misplaced_wildcard");
        refused.put("垃圾*", "misplaced_wildcard");
        refused.put("ag*", "prefix_too_short");
        refused.put("abc* def* ghi* jkl* mno*", "too_many_prefixes");
        refused.put("\"feed reader", "unbalanced_quote");
        refused.put("\"\"\"", "unbalanced_quote");
        refused.put("redis\u0000", "invalid_characters");
        refused.put("\u0007\u0008\u001b", "invalid_characters");
        refused.put("\"" + "word ".repeat(60) + "\"", "too_many_terms");
        refused.put("\"" + "phrase ".repeat(200) + "\"", "query_too_long");
        refused.put(java.util.stream.IntStream.range(0, 100).mapToObj(i -> "w" + i).collect(java.util.stream.Collectors.joining(" ")),
                "too_many_terms");
        refused.put("\"\"", "empty_query");
        refused.forEach((q, reason) -> {
            ApiResponse response = api.get(search(q, ""), alice.token());
            assertProblem(response, "q", reason);
            assertThat(response.json().path("errors").get(0).path("message").asString()).as(q).isNotBlank();
        });
        // 10,000 words do not fit the server's URL limit: refused before any handler, still a problem.
        ApiResponse tenThousand = api.get(search(String.join(" ", java.util.Collections.nCopies(10_000, "w")), ""), alice.token());
        assertThat(tenThousand.status()).isBetween(400, 499);
        assertThat(tenThousand.contentType()).startsWith("application/problem+json");
        ApiResponse star = api.get(search("*", ""), alice.token());
        assertThat(star.json().toString()).contains("aggregat*");
        ApiResponse quote = api.get(search("\"open", ""), alice.token());
        assertThat(quote.json().toString()).contains("double quotes");
    }

    @Test
    void aPrefixTooManyIndexedWordsStartIsAProblemThatAsksForMoreLetters() {
        long feed = deliveries.feed();
        deliveries.follow(alice, feed);
        String prefix = "pfx" + UUID.randomUUID().toString().replace("-", "").chars().limit(8)
                .mapToObj(c -> String.valueOf((char) ('g' + Character.digit(c, 16)))).collect(java.util.stream.Collectors.joining());
        String words = java.util.stream.IntStream.range(0, 25).mapToObj(i -> prefix + i).collect(java.util.stream.Collectors.joining(" "));
        deliveries.publish(feed, entry(words, "<p>x</p>", MediaType.TEXT));
        DeferredIndexing.awaitDrained(jdbc);

        assertThat(api.get(search(prefix + "2*", ""), alice.token()).json().size()).isEqualTo(1);
        ApiResponse broad = api.get(search(prefix + "*", ""), alice.token());
        assertProblem(broad, "q", "prefix_too_broad");
        assertThat(broad.json().toString()).contains("type more letters");
    }

    private static void assertProblem(ApiResponse response, String field, String reason) {
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        JsonNode json = response.json();
        assertThat(json.path("errors").get(0).path("field").asString()).isEqualTo(field);
        if (reason != null) {
            assertThat(json.path("reason").asString()).isEqualTo(reason);
        }
    }
}
