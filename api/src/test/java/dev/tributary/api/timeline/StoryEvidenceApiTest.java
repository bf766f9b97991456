package dev.tributary.api.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import dev.tributary.storage.testing.DeferredIndexing;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Issue 45, item 1, over HTTP and through the crawler: distinct entries that share a link stay
 * distinct (a changelog's anchors, a feed that links every entry to its home page), while one post
 * that several feeds carry (same permalink, or same permalink guid) is one entry with {@code also_in},
 * in the timeline, the unread counts and search alike.
 */
@ApiTest
class StoryEvidenceApiTest {

    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();
    private static final Instant NEWEST = Instant.now().minusSeconds(3600);

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired JdbcClient jdbc;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    /** One RSS item as feeds write it: a guid (a permalink or not), a title and a link. */
    private record Item(String guid, boolean permalink, String title, String link) {
        static Item of(String guid, String title, String link) {
            return new Item(guid, false, title, link);
        }
    }

    private static String rss(String title, String siteUrl, List<Item> items) {
        StringBuilder xml = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0"><channel><title>%s</title><link>%s</link><description>test</description>
                """.formatted(title, siteUrl));
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            xml.append("<item><guid isPermaLink=\"").append(item.permalink()).append("\">").append(item.guid()).append("</guid>")
                    .append("<title>").append(item.title()).append("</title><link>").append(item.link()).append("</link>")
                    .append("<description>about ").append(item.title()).append("</description><pubDate>")
                    .append(DateTimeFormatter.RFC_1123_DATE_TIME.format(NEWEST.minusSeconds(60L * i).atOffset(ZoneOffset.UTC)))
                    .append("</pubDate></item>\n");
        }
        return xml.append("</channel></rss>\n").toString();
    }

    /** Serves the feed at a path of its own and subscribes the reader to it; the feed source's id. */
    private String subscribe(TestUser reader, String name, String body) {
        String path = "/" + name + "-" + UUID.randomUUID() + ".xml";
        server.feed(path, body);
        ApiResponse created = api.post("/api/v1/subscriptions", reader.token(), Map.of("url", server.url(path).toString()));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().path("source").path("id").asString();
    }

    private JsonNode home(TestUser reader) {
        return api.get("/api/v1/timelines/home?limit=100", reader.token()).json();
    }

    private List<String> titles(TestUser reader) {
        List<String> titles = new ArrayList<>();
        home(reader).forEach(item -> titles.add(item.path("title").asString()));
        return titles;
    }

    private long unread(TestUser reader) {
        return api.get("/api/v1/unread", reader.token()).json().path("total").asLong();
    }

    private static List<String> alsoIn(JsonNode item) {
        return item.path("also_in").valueStream().map(source -> source.path("id").asString()).toList();
    }

    private static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aChangelogsAnchorsAreFourEntriesAndFourUnread() {
        TestUser reader = api.newUser("changelog");
        String site = "https://" + unique("cl") + ".example/";
        List<Item> items = new ArrayList<>();
        for (int minor = 3; minor >= 0; minor--) {
            items.add(Item.of("v2." + minor, "Release 2." + minor, site + "changelog#v2-" + minor));
        }
        subscribe(reader, "changelog", rss("Changelog", site, items));

        Await.until("the changelog's entries in the timeline", () -> titles(reader).size() >= 4);

        assertThat(titles(reader)).containsExactlyInAnyOrder("Release 2.0", "Release 2.1", "Release 2.2", "Release 2.3");
        assertThat(unread(reader)).isEqualTo(4);
        assertThat(api.get("/api/v1/timelines/home?limit=100&unread=true", reader.token()).json().size()).isEqualTo(4);
    }

    @Test
    void entriesLinkingTheirHomePageAreFiveAndASecondSuchFeedMakesTen() {
        TestUser reader = api.newUser("homelinks");
        String site = "https://" + unique("home") + ".example/";
        List<Item> first = new ArrayList<>();
        List<Item> second = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            first.add(Item.of(String.valueOf(i), "Posts " + i, site));
            // The same local guids, and the same page linked, but the feed names another page its home:
            // five entries linking one page are no permalinks either way.
            second.add(Item.of(String.valueOf(i), "Comments " + i, site));
        }
        subscribe(reader, "posts", rss("Posts", site, first));
        Await.until("the first feed's entries", () -> titles(reader).size() >= 5);
        assertThat(titles(reader)).hasSize(5);
        assertThat(unread(reader)).isEqualTo(5);

        subscribe(reader, "comments", rss("Comments", site + "comments/", second));
        Await.until("both feeds' entries", () -> titles(reader).size() >= 10);

        assertThat(titles(reader)).hasSize(10).doesNotHaveDuplicates();
        assertThat(unread(reader)).isEqualTo(10);
        assertThat(home(reader).valueStream().filter(item -> !alsoIn(item).isEmpty()).toList()).isEmpty();
    }

    @Test
    void onePostInThreeCategoryFeedsIsOneEntryWithAlsoInAndOneSearchHit() {
        TestUser reader = api.newUser("categories");
        String site = "https://" + unique("blog") + ".example/";
        String word = unique("w");
        // One post by its permalink link in every feed (local guids of each feed's own), one by its
        // permalink guid (each feed links it through a redirect of its own), and each feed's own post.
        List<String> feeds = new ArrayList<>();
        for (String category : List.of("java", "rust", "go")) {
            feeds.add(subscribe(reader, category, rss("Blog: " + category, site, List.of(
                    Item.of(category + "-1", "Linked " + word, site + "2026/11/linked/"),
                    new Item(site + "?p=2", false, "Guided " + word, "https://redirect.example/" + category + "/2"),
                    Item.of(category + "-3", "Only " + category + " " + word, site + "2026/11/" + category + "/")))));
        }
        Await.until("three feeds' posts in the timeline", () -> titles(reader).size() >= 5
                && home(reader).valueStream().filter(item -> alsoIn(item).size() == 2).count() == 2);

        JsonNode page = home(reader);
        assertThat(titles(reader)).containsExactlyInAnyOrder("Linked " + word, "Guided " + word,
                "Only java " + word, "Only rust " + word, "Only go " + word);
        for (JsonNode item : page) {
            String source = item.path("source").path("id").asString();
            List<String> others = feeds.stream().filter(feed -> !feed.equals(source)).toList();
            if (item.path("title").asString().startsWith("Only")) {
                assertThat(alsoIn(item)).isEmpty();
            } else {
                assertThat(alsoIn(item)).as(item.path("title").asString()).containsExactlyInAnyOrderElementsOf(others);
            }
        }
        assertThat(unread(reader)).isEqualTo(5);

        DeferredIndexing.awaitDrained(jdbc);
        JsonNode hits = api.get("/api/v1/search?q=" + URLEncoder.encode(word, StandardCharsets.UTF_8) + "&limit=20",
                reader.token()).json();
        List<String> hitTitles = hits.valueStream().map(hit -> hit.path("title").asString()).toList();
        assertThat(hitTitles).containsExactlyInAnyOrder("Linked " + word, "Guided " + word,
                "Only java " + word, "Only rust " + word, "Only go " + word);
        for (JsonNode hit : hits) {
            JsonNode entry = page.valueStream().filter(item -> item.path("id").equals(hit.path("id"))).findFirst().orElseThrow();
            assertThat(alsoIn(hit)).as("the hit is the timeline's entry").isEqualTo(alsoIn(entry));
        }
        JsonNode paged = api.get("/api/v1/search?q=" + URLEncoder.encode("linked " + word, StandardCharsets.UTF_8)
                + "&limit=1", reader.token()).json();
        assertThat(paged.size()).isEqualTo(1);
        assertThat(paged.get(0).path("title").asString()).isEqualTo("Linked " + word);
    }

    @Test
    void anEntryLinkingAPageAnEarlierEntryOfItsFeedLinkedIsAnotherEntry() {
        TestUser reader = api.newUser("later");
        Deliveries deliveries = new Deliveries(api, sources, subscriptions, publisher);
        long feed = deliveries.feed();
        deliveries.follow(reader, feed);
        String page = "https://" + unique("news") + ".example/news";
        // Two fetches of a feed that carries one entry at a time, each linking the same page.
        List<Long> first = deliveries.deliver(feed, List.of(reader), entry("1", page, 120));
        List<Long> second = deliveries.deliver(feed, List.of(reader), entry("2", page, 60));

        assertThat(deliveries.timelineIds(reader)).containsExactlyInAnyOrder(first.getFirst(), second.getFirst());
        assertThat(unread(reader)).isEqualTo(2);
    }

    private static NewItem entry(String guid, String url, long secondsAgo) {
        return new NewItem(guid, "Entry " + guid, "<p>news</p>", url, null, MediaType.TEXT, List.of(), List.of(),
                Instant.now().minusSeconds(secondsAgo));
    }
}
