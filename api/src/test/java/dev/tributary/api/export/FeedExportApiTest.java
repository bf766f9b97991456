package dev.tributary.api.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.rometools.rome.feed.synd.SyndCategory;
import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.io.SyndFeedInput;
import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.pubsub.Media;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.storage.testing.Await;
import java.io.StringReader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

@ApiTest
class FeedExportApiTest {

    @LocalServerPort int port;
    @Autowired Publisher publisher;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void aPersonsPublicFeedIsRssWithTheirItemsNewestFirst() throws Exception {
        TestUser alice = api.newUser("rss");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        post(alice, item("first", "First post", "<p>Hello <b>world</b></p>", now.minusSeconds(120), List.of("intro"), List.of()));
        post(alice, item("second", "A picture", "<p>Look</p>", now.minusSeconds(60), List.of("photo", "cats"),
                List.of(new Media("https://img.example.org/cat.jpg", "image/jpeg", 640, 480, 12345L))));

        ApiResponse response = get("/feeds/users/" + alice.username() + ".rss");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).isEqualToIgnoringCase("application/rss+xml;charset=UTF-8");
        SyndFeed feed = parse(response);
        assertThat(feed.getFeedType()).isEqualTo("rss_2.0");
        assertThat(feed.getTitle()).contains(alice.username());
        assertThat(feed.getEntries()).extracting(SyndEntry::getTitle).containsExactly("A picture", "First post");
        SyndEntry picture = feed.getEntries().getFirst();
        assertThat(picture.getLink()).isEqualTo("https://example.org/second");
        assertThat(picture.getUri()).startsWith("urn:tributary:item:");
        assertThat(picture.getPublishedDate().toInstant()).isEqualTo(now.minusSeconds(60));
        assertThat(picture.getAuthor()).isEqualTo("Alice Author");
        assertThat(picture.getDescription().getValue()).isEqualTo("<p>Look</p>");
        assertThat(picture.getCategories()).extracting(SyndCategory::getName).containsExactly("photo", "cats");
        assertThat(picture.getEnclosures()).singleElement().satisfies(enclosure -> {
            assertThat(enclosure.getUrl()).isEqualTo("https://img.example.org/cat.jpg");
            assertThat(enclosure.getType()).isEqualTo("image/jpeg");
            assertThat(enclosure.getLength()).isEqualTo(12345L);
        });
        assertThat(response.body()).contains("media:content");
    }

    @Test
    void theSameFeedIsAtomWithStableIds() throws Exception {
        TestUser bob = api.newUser("atom");
        post(bob, item("a1", null, "<p>An untitled note that goes on</p>", Instant.now().minusSeconds(30), List.of("note"), List.of()));

        ApiResponse response = get("/feeds/users/" + bob.username() + ".atom");
        ApiResponse again = get("/feeds/users/" + bob.username() + ".atom");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).isEqualToIgnoringCase("application/atom+xml;charset=UTF-8");
        SyndFeed feed = parse(response);
        assertThat(feed.getFeedType()).isEqualTo("atom_1.0");
        SyndEntry entry = feed.getEntries().getFirst();
        assertThat(entry.getTitle()).as("an untitled post is titled with its text").isEqualTo("An untitled note that goes on");
        assertThat(entry.getDescription().getValue()).isEqualTo("<p>An untitled note that goes on</p>");
        assertThat(entry.getCategories()).extracting(SyndCategory::getName).containsExactly("note");
        assertThat(parse(again).getEntries().getFirst().getUri()).isEqualTo(entry.getUri());
        assertThat(again.header("ETag")).isEqualTo(response.header("ETag"));
    }

    @Test
    void thePublicFeedHoldsTheNewest50PostsAndAttachedFeeds() throws Exception {
        TestUser carol = api.newUser("many");
        Instant start = Instant.now().minus(1, ChronoUnit.HOURS);
        List<NewItem> posts = new ArrayList<>();
        for (int i = 0; i < 55; i++) {
            posts.add(item("p" + i, "Post " + i, "<p>" + i + "</p>", start.plusSeconds(i), List.of(), List.of()));
        }
        publisher.publish(sources.ofUser(carol.numericId()).id(), posts);
        long attached = sources.feed("https://blog.example.org/" + UUID.randomUUID() + "/feed").id();
        sources.attach(carol.numericId(), attached);
        publisher.publish(attached, List.of(item("blog", "From the blog", "<p>b</p>", start.plusSeconds(30).plusMillis(500),
                List.of(), List.of())));

        SyndFeed feed = parse(get("/feeds/users/" + carol.username() + ".rss"));

        // Newest by arrival (item ids), as every timeline orders them; the blog's entry came last.
        List<String> titles = feed.getEntries().stream().map(SyndEntry::getTitle).toList();
        assertThat(titles).hasSize(50).startsWith("From the blog", "Post 54", "Post 53").endsWith("Post 6");
    }

    @Test
    void xmlHostileContentStillMakesWellFormedFeeds() throws Exception {
        TestUser dan = api.newUser("hostile");
        String title = "<script>alert(1)</script> ]]> \u0000\u0001\u000B\uFFFE\uD800 end";
        post(dan, new NewItem("hostile", title, "<p>a ]]> b \u0007 c</p>", "https://example.org/?a=1&b=<2>",
                "Dan \u0003 <b>", MediaType.TEXT, List.of(), List.of("tag\u0000]]>", "<x>"), Instant.now().minusSeconds(5)));

        for (String format : List.of("rss", "atom")) {
            ApiResponse response = get("/feeds/users/" + dan.username() + "." + format);

            assertThat(response.status()).as(format).isEqualTo(200);
            SyndEntry entry = parse(response).getEntries().getFirst();
            assertThat(entry.getTitle()).startsWith("<script>alert(1)</script> ]]>").endsWith("end")
                    .doesNotContain("\u0000", "\u0001", "\u000B", "\uFFFE", "\uD800");
            assertThat(entry.getDescription().getValue()).isEqualToNormalizingWhitespace("<p>a ]]> b c</p>");
            assertThat(entry.getLink()).isEqualTo("https://example.org/?a=1&b=<2>");
            assertThat(entry.getCategories()).extracting(SyndCategory::getName).containsExactly("tag]]>", "<x>");
            assertThat(response.body()).doesNotContain("<script>");
        }
    }

    @Test
    void unknownPeopleAreA404Problem() {
        for (String path : List.of("/feeds/users/nobody_" + UUID.randomUUID().toString().substring(0, 8) + ".rss",
                "/feeds/users/no_such_person_here.atom", "/feeds/users/UPPER.rss", "/feeds/users/a.json", "/feeds/users/.rss")) {
            ApiResponse response = get(path);

            assertThat(response.status()).as(path).isEqualTo(404);
            assertThat(response.contentType()).as(path).startsWith("application/problem+json");
        }
    }

    @Test
    void conditionalRequestsGet304UntilTheFeedChanges() {
        TestUser erin = api.newUser("cond");
        post(erin, item("c1", "One", "<p>1</p>", Instant.now().minusSeconds(60), List.of(), List.of()));
        String path = "/feeds/users/" + erin.username() + ".rss";
        ApiResponse first = get(path);
        String etag = first.header("ETag");
        String lastModified = first.header("Last-Modified");
        assertThat(etag).isNotBlank();
        assertThat(lastModified).isNotBlank();
        assertThat(first.header("Cache-Control")).contains("public").contains("max-age");

        ApiResponse byEtag = api.send(api.builder(path, null).header("If-None-Match", etag).GET());
        // A client that holds the feed as of a second after its Last-Modified has every change.
        String secondLater = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME).plusSeconds(1));
        ApiResponse byDate = api.send(api.builder(path, null).header("If-Modified-Since", secondLater).GET());
        ApiResponse otherEtag = api.send(api.builder(path, null).header("If-None-Match", "\"something-else\"").GET());

        assertThat(byEtag.status()).isEqualTo(304);
        assertThat(byEtag.body()).isEmpty();
        assertThat(byEtag.header("ETag")).isEqualTo(etag);
        assertThat(byDate.status()).isEqualTo(304);
        assertThat(byDate.body()).isEmpty();
        assertThat(otherEtag.status()).isEqualTo(200);

        post(erin, item("c2", "Two", "<p>2</p>", Instant.now().minusSeconds(30), List.of(), List.of()));
        ApiResponse changed = api.send(api.builder(path, null).header("If-None-Match", etag).GET());
        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.header("ETag")).isNotEqualTo(etag);
    }

    @Test
    void ifModifiedSinceEqualToTheServedLastModifiedIs304AndAnEarlierOneIsNot() {
        TestUser gil = api.newUser("samesecond");
        post(gil, item("s1", "One", "<p>1</p>", Instant.now().minusSeconds(60), List.of(), List.of()));
        publisher.publish(sources.ofUser(gil.numericId()).id(),
                List.of(item("s2", "Two", "<p>2</p>", Instant.now().minusSeconds(30), List.of(), List.of())));
        String path = "/feeds/users/" + gil.username() + ".rss";
        String lastModified = get(path).header("Last-Modified");

        // What a feed reader does: echo the Last-Modified it was served (second precision).
        ApiResponse echoed = api.send(api.builder(path, null).header("If-Modified-Since", lastModified).GET());
        assertThat(echoed.status()).as("If-Modified-Since " + lastModified).isEqualTo(304);
        assertThat(echoed.body()).isEmpty();
        String secondEarlier = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME).minusSeconds(1));
        assertThat(api.send(api.builder(path, null).header("If-Modified-Since", secondEarlier).GET()).status()).isEqualTo(200);
        ApiResponse byEtag = api.send(api.builder(path, null).header("If-None-Match", echoed.header("ETag"))
                .header("If-Modified-Since", "Thu, 01 Jan 1970 00:00:00 GMT").GET());
        assertThat(byEtag.status()).as("If-None-Match rules over If-Modified-Since").isEqualTo(304);
    }

    @Test
    void anEntryWithoutALinkLinksItsPageInTheWebFrontEndAndRssHasASelfLink() throws Exception {
        TestUser hal = api.newUser("nolink");
        long id = publisher.publish(sources.ofUser(hal.numericId()).id(), List.of(new NewItem("n1", null, "<p>Just words</p>", null,
                null, MediaType.TEXT, List.of(), List.of(), Instant.now().minusSeconds(5)))).created().getFirst();

        SyndFeed atom = parse(get("/feeds/users/" + hal.username() + ".atom"));
        ApiResponse rss = get("/feeds/users/" + hal.username() + ".rss");

        String page = api.url("/items/" + id);
        assertThat(atom.getEntries().getFirst().getLink()).isEqualTo(page);
        assertThat(atom.getEntries().getFirst().getUri()).startsWith("urn:tributary:item:");
        assertThat(parse(rss).getEntries().getFirst().getLink()).isEqualTo(page);
        assertThat(api.get("/items/" + id, null).status()).as("the page exists").isNotEqualTo(404);
        assertThat(rss.body()).contains("<atom:link href=\"" + api.url("/feeds/users/" + hal.username() + ".rss")
                + "\" rel=\"self\" type=\"application/rss+xml\"");
        assertThat(rss.body()).contains("xmlns:atom=\"http://www.w3.org/2005/Atom\"");
    }

    @Test
    void theHomeFeedShowsTheTokenHoldersTimelineAndOnlyTheirs() throws Exception {
        TestUser author = api.newUser("author");
        TestUser other = api.newUser("other");
        TestUser reader = api.newUser("reader");
        TestUser stranger = api.newUser("stranger");
        subscriptions.subscribe(reader.numericId(), sources.ofUser(author.numericId()).id(), List.of());
        subscriptions.subscribe(stranger.numericId(), sources.ofUser(other.numericId()).id(), List.of());
        post(author, item("h1", "For my followers", "<p>hi</p>", Instant.now().minusSeconds(10), List.of(), List.of()));
        post(other, item("h2", "Someone else's", "<p>no</p>", Instant.now().minusSeconds(5), List.of(), List.of()));

        String readerPath = "/feeds/home.rss?token=" + feedToken(reader);
        String strangerPath = "/feeds/home.atom?token=" + feedToken(stranger);
        Await.until("the followed post in the reader's feed", () -> titles(get(readerPath)).contains("For my followers"));
        Await.until("the other post in the stranger's feed", () -> titles(get(strangerPath)).contains("Someone else's"));

        ApiResponse home = get(readerPath);
        assertThat(home.status()).isEqualTo(200);
        assertThat(home.contentType()).isEqualToIgnoringCase("application/rss+xml;charset=UTF-8");
        assertThat(home.header("Cache-Control")).contains("private").doesNotContain("public");
        assertThat(titles(home)).containsExactly("For my followers");
        assertThat(titles(get(strangerPath))).containsExactly("Someone else's");
        ApiResponse notModified = api.send(api.builder(readerPath, null).header("If-None-Match", home.header("ETag")).GET());
        assertThat(notModified.status()).isEqualTo(304);
    }

    @Test
    void missingWrongAndRotatedTokensAreThe404OfNoFeed() {
        TestUser fay = api.newUser("tok");
        String old = feedToken(fay);
        String current = feedToken(fay);

        List<ApiResponse> refused = List.of(get("/feeds/home.rss"), get("/feeds/home.rss?token="),
                get("/feeds/home.atom?token=wrong"), get("/feeds/home.rss?token=" + old),
                get("/feeds/home.rss?token=" + "x".repeat(4000)), get("/feeds/home.rss?token=" + enc(current + "\u0000")),
                get("/feeds/home.rss?token=" + fay.token()));

        for (ApiResponse response : refused) {
            assertThat(response.status()).as(response.toString()).isEqualTo(404);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.body()).doesNotContain(fay.username());
        }
        assertThat(get("/feeds/home.rss?token=" + current).status()).isEqualTo(200);
    }

    @Test
    void anOpenGroupsFeedIsExportedWithItsMembersPostsAndNamesItsHub() throws Exception {
        TestUser owner = api.newUser("gowner");
        TestUser member = api.newUser("gmember");
        String id = api.newGroup(owner, "Open Gardeners", true);
        assertThat(api.post("/api/v1/groups/" + id + "/members", member.token(), Map.of("username", member.username())).status())
                .isEqualTo(201);
        api.groupPost(owner, id, "Welcome to the garden");
        api.groupPost(member, id, "Tomatoes are early this year");

        ApiResponse atom = get("/feeds/groups/" + id + ".atom");
        ApiResponse rss = get("/feeds/groups/" + id + ".rss");

        assertThat(atom.status()).isEqualTo(200);
        assertThat(atom.contentType()).isEqualToIgnoringCase("application/atom+xml;charset=UTF-8");
        assertThat(rss.contentType()).isEqualToIgnoringCase("application/rss+xml;charset=UTF-8");
        assertThat(atom.header("Cache-Control")).contains("public");
        SyndFeed feed = parse(atom);
        assertThat(feed.getTitle()).contains("Open Gardeners");
        assertThat(atom.body()).contains("<link rel=\"alternate\" type=\"text/html\" href=\"" + api.url("/groups/" + id) + "\"");
        assertThat(parse(rss).getLink()).as("the group's page").isEqualTo(api.url("/groups/" + id));
        assertThat(feed.getUri()).isEqualTo("urn:tributary:feed:group:" + id);
        assertThat(feed.getEntries()).extracting(SyndEntry::getTitle)
                .containsExactly("Tomatoes are early this year", "Welcome to the garden");
        assertThat(parse(rss).getEntries()).extracting(SyndEntry::getTitle)
                .containsExactly("Tomatoes are early this year", "Welcome to the garden");
        assertThat(atom.headers("Link")).containsExactly("<" + api.url("/websub/hub") + ">; rel=\"hub\"",
                "<" + api.url("/feeds/groups/" + id + ".atom") + ">; rel=\"self\"");
        assertThat(atom.body()).contains("<link rel=\"hub\" href=\"" + api.url("/websub/hub") + "\"",
                "<link rel=\"self\" type=\"application/atom+xml\" href=\"" + api.url("/feeds/groups/" + id + ".atom") + "\"");
        assertThat(rss.body()).contains("<atom:link href=\"" + api.url("/feeds/groups/" + id + ".rss") + "\" rel=\"self\"");
    }

    @Test
    void closedUnknownMalformedAndHostileGroupIdsAreAllTheSame404() {
        TestUser owner = api.newUser("gclosed");
        String closed = api.newGroup(owner, "Secret Society", false);
        api.groupPost(owner, closed, "Members only, please");
        String open = api.newGroup(owner, "Public Square", true);
        String unknown = Long.toString(Long.MAX_VALUE);
        ApiResponse none = get("/feeds/groups/" + unknown + ".atom");
        assertThat(none.status()).isEqualTo(404);

        List<String> paths = List.of("/feeds/groups/" + closed + ".atom", "/feeds/groups/" + closed + ".rss",
                "/feeds/groups/" + unknown + ".rss", "/feeds/groups/0.atom", "/feeds/groups/0" + open + ".atom",
                "/feeds/groups/-" + open + ".atom", "/feeds/groups/+" + open + ".atom", "/feeds/groups/" + open + "0000000000000000000.rss",
                "/feeds/groups/99999999999999999999999999999999999999.atom", "/feeds/groups/abc.rss", "/feeds/groups/1e3.atom",
                "/feeds/groups/" + open + ".5.atom", "/feeds/groups/%20" + open + ".atom",
                "/feeds/groups/.atom", "/feeds/groups/" + open + ".json",
                "/feeds/groups/" + open, "/feeds/groups/" + open + ".atom/x", "/feeds/groups/%E2%91%A0.atom",
                "/feeds/groups/" + "9".repeat(5000) + ".rss");
        for (String path : paths) {
            ApiResponse response = get(path);

            assertThat(response.status()).as(path).isEqualTo(404);
            assertThat(response.contentType()).as(path).startsWith("application/problem+json");
            assertThat(response.body()).as(path).doesNotContain("Secret Society", "Members only", "Public Square");
            assertThat(response.header("ETag")).as(path).isNull();
        }
        // What the handler answers does not tell a closed group from none: the same problem, word for word.
        for (String format : List.of("rss", "atom")) {
            ApiResponse response = get("/feeds/groups/" + closed + "." + format);
            assertThat(response.json().path("title").asString()).isEqualTo(none.json().path("title").asString());
            assertThat(response.json().path("detail").asString()).isEqualTo(none.json().path("detail").asString());
            assertThat(response.json().path("type").asString()).isEqualTo(none.json().path("type").asString());
        }
        // A NUL, an encoded slash or dot-segments in the path are refused before any handler (400), whatever the id:
        // an open group, a closed one and none are answered alike.
        for (String hostile : List.of("/feeds/groups/%s%%00.atom", "/feeds/groups/..%%2f%s.atom", "/feeds/groups/%%2e%%2e%%2f%s.rss",
                "/feeds/groups/%s%%2f..%%2f.atom", "/feeds/groups/%s/..%%2f..%%2fusers%%2f" + owner.username() + ".atom")) {
            List<ApiResponse> answers = Stream.of(open, closed, unknown).map(id -> get(String.format(hostile, id))).toList();
            for (ApiResponse response : answers) {
                assertThat(response.status()).as(hostile).isBetween(400, 404);
                assertThat(response.contentType()).as(hostile).startsWith("application/problem+json");
                assertThat(response.body()).as(hostile).doesNotContain("Secret Society", "Members only", "Public Square");
            }
            assertThat(answers).extracting(ApiResponse::status).as(hostile).containsOnly(answers.getFirst().status());
        }
        // Its members are answered the same: a feed url carries no credential.
        ApiResponse asOwner = api.send(api.builder("/feeds/groups/" + closed + ".atom", owner.token()).GET());
        assertThat(asOwner.status()).isEqualTo(404);
        assertThat(get("/feeds/groups/" + open + ".atom").status()).as("the open one is served").isEqualTo(200);
    }

    @Test
    void aGroupsFeedAnswers304UntilAPostChangesIt() {
        TestUser owner = api.newUser("gcond");
        String id = api.newGroup(owner, "Conditional", true);
        api.groupPost(owner, id, "One");
        String path = "/feeds/groups/" + id + ".rss";
        ApiResponse first = get(path);
        String etag = first.header("ETag");

        ApiResponse byEtag = api.send(api.builder(path, null).header("If-None-Match", etag).GET());
        ApiResponse byDate = api.send(api.builder(path, null).header("If-Modified-Since", first.header("Last-Modified")).GET());

        assertThat(byEtag.status()).isEqualTo(304);
        assertThat(byEtag.body()).isEmpty();
        assertThat(byEtag.headers("Link")).contains("<" + api.url(path) + ">; rel=\"self\"");
        assertThat(byDate.status()).isEqualTo(304);
        api.groupPost(owner, id, "Two");
        ApiResponse changed = api.send(api.builder(path, null).header("If-None-Match", etag).GET());
        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.header("ETag")).isNotEqualTo(etag);
    }

    @Test
    void closingAGroupStopsItsExportAtOnceAndOpeningServesItAgain() throws Exception {
        TestUser owner = api.newUser("gswitch");
        String id = api.newGroup(owner, "Switching", false);
        api.groupPost(owner, id, "Said while closed");
        String path = "/feeds/groups/" + id + ".atom";
        assertThat(get(path).status()).as("closed").isEqualTo(404);

        api.setGroupOpen(owner, id, true);
        ApiResponse opened = get(path);
        assertThat(opened.status()).as("opened").isEqualTo(200);
        assertThat(parse(opened).getEntries()).extracting(SyndEntry::getTitle).containsExactly("Said while closed");

        api.setGroupOpen(owner, id, false);
        ApiResponse closedAgain = get(path);
        ApiResponse revalidated = api.send(api.builder(path, null).header("If-None-Match", opened.header("ETag")).GET());
        assertThat(closedAgain.status()).as("closed again").isEqualTo(404);
        assertThat(closedAgain.body()).doesNotContain("Said while closed", "Switching");
        assertThat(revalidated.status()).as("a reader holding the open feed's ETag is not told 304").isEqualTo(404);
    }

    private void post(TestUser user, NewItem item) {
        publisher.publish(sources.ofUser(user.numericId()).id(), List.of(item));
    }

    private static NewItem item(String guid, String title, String summary, Instant published, List<String> tags, List<Media> media) {
        return new NewItem(guid, title, summary, "https://example.org/" + guid, "Alice Author",
                media.isEmpty() ? MediaType.TEXT : MediaType.IMAGE, media, tags, published);
    }

    /** Makes a new feed token: it is shown only in that answer (the one before stops working). */
    private String feedToken(TestUser user) {
        return api.post("/api/v1/me/feed_token", user.token(), null).json().path("feed_token").asString();
    }

    private ApiResponse get(String path) {
        return api.send(api.builder(path, null).header("Accept", "application/rss+xml, application/atom+xml, */*;q=0.5").GET());
    }

    private static List<String> titles(ApiResponse response) throws Exception {
        return response.status() != 200 ? List.of() : parse(response).getEntries().stream().map(SyndEntry::getTitle).toList();
    }

    private static SyndFeed parse(ApiResponse response) throws Exception {
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return new SyndFeedInput().build(new StringReader(response.body()));
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
