package dev.tributary.api.opml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.crawler.testing.FeedServer;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

@ApiTest
class OpmlApiTest {

    @RegisterExtension
    static final FeedServerExtension server = new FeedServerExtension();

    @LocalServerPort int port;
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void importSubscribesToEachFeedOnceAndListsWhatItCouldNot() {
        TestUser alice = api.newUser("imp");
        server.feed("/imp/one.xml", TestFeeds.numbered("One", 1, Instant.now().minusSeconds(60)));
        server.feed("/imp/two.xml", TestFeeds.numbered("Two", 1, Instant.now().minusSeconds(60)));
        String opml = opml("""
                <outline text="Tech">
                  <outline type="rss" text="One" xmlUrl="%s"/>
                  <outline text="Deeper"><outline type="rss" text="Two" xmlUrl="%s"/></outline>
                </outline>
                <outline type="rss" text="One again" xmlUrl="%s"/>
                <outline type="rss" text="Bad" xmlUrl="javascript:alert(1)"/>
                <outline type="rss" text="Empty" xmlUrl=""/>
                """.formatted(url("/imp/one.xml"), url("/imp/two.xml"), url("/imp/one.xml")));

        ApiResponse result = api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "text/x-opml");
        ApiResponse again = api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "application/xml; charset=utf-8");

        assertThat(result.status()).as(result.toString()).isEqualTo(200);
        assertThat(result.json().path("imported").asInt()).isEqualTo(2);
        assertThat(result.json().path("skipped").asInt()).isEqualTo(1);
        assertThat(result.json().path("errors").valueStream().map(e -> e.path("url").asString()))
                .containsExactly("javascript:alert(1)", "");
        assertThat(result.json().path("errors").get(0).path("message").asString()).isNotEmpty();
        assertThat(result.json().path("unchecked").size()).as("every check ended within the budget").isZero();
        assertThat(again.json().path("imported").asInt()).isZero();
        assertThat(again.json().path("skipped").asInt()).isEqualTo(3);
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().valueStream()
                .map(s -> s.path("source").path("url").asString())).containsExactly(url("/imp/one.xml"), url("/imp/two.xml"));
        assertThat(server.requests("/imp/one.xml")).as("a new feed is fetched once, a known one not again").hasSize(1);
    }

    @Test
    void deadUrlsAreListedWithWhyAndNotImported() {
        TestUser alice = api.newUser("dead");
        server.feed("/dead/live.xml", TestFeeds.numbered("Live feed", 1, Instant.now().minusSeconds(60)));
        server.respond("/dead/page.html", 200, Map.of("Content-Type", "text/html"), "<html><head><title>x</title></head></html>");
        server.respond("/dead/gone.xml", 410, Map.of(), "");
        String opml = opml("""
                <outline type="rss" text="My live one" xmlUrl="%s"/>
                <outline type="rss" text="Missing" xmlUrl="%s"/>
                <outline type="rss" text="Gone" xmlUrl="%s"/>
                <outline type="rss" text="A page" xmlUrl="%s"/>
                <outline type="rss" text="Refused" xmlUrl="http://127.0.0.1:9/feed.xml"/>
                """.formatted(url("/dead/live.xml"), url("/dead/missing.xml"), url("/dead/gone.xml"), url("/dead/page.html")));

        ApiResponse result = api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "text/xml");

        assertThat(result.status()).as(result.toString()).isEqualTo(200);
        assertThat(result.json().path("imported").asInt()).isEqualTo(1);
        assertThat(result.json().path("errors").valueStream().map(e -> e.path("url").asString())).containsExactly(
                url("/dead/missing.xml"), url("/dead/gone.xml"), url("/dead/page.html"), "http://127.0.0.1:9/feed.xml");
        assertThat(result.json().path("errors").valueStream().map(e -> e.path("message").asString())).allMatch(m -> !m.isBlank());
        var subscribed = api.get("/api/v1/subscriptions", alice.token()).json();
        assertThat(subscribed.valueStream().map(s -> s.path("source").path("url").asString())).containsExactly(url("/dead/live.xml"));
        assertThat(subscribed.get(0).path("source").path("title").asString()).as("fetched at import").isEqualTo("Live feed");
    }

    /**
     * The import waits for checks only the budget (10 s in the tests' configuration): a feed whose
     * server answers later is subscribed unchecked and listed as such, titled from its outline,
     * while the quick ones of the same import are checked as before.
     */
    @Test
    void feedsStillBeingCheckedWhenTheBudgetEndsAreSubscribedUncheckedAndListed() {
        TestUser alice = api.newUser("slow");
        server.feed("/slow/quick.xml", TestFeeds.numbered("Quick feed", 1, Instant.now().minusSeconds(60)));
        try (FeedServer distant = FeedServer.start().latency(java.time.Duration.ofSeconds(12))) {
            distant.feed("/slow.xml", TestFeeds.numbered("Slow feed", 1, Instant.now().minusSeconds(60)));
            String slow = distant.url("/slow.xml").toString();
            String slowAndMissing = distant.url("/missing.xml").toString();
            String opml = opml("""
                    <outline type="rss" text="Quick" xmlUrl="%s"/>
                    <outline type="rss" text="Missing" xmlUrl="%s"/>
                    <outline type="rss" text="My slow one" xmlUrl="%s"/>
                    <outline type="rss" text="Slow and missing" xmlUrl="%s"/>
                    """.formatted(url("/slow/quick.xml"), url("/slow/missing.xml"), slow, slowAndMissing));

            ApiResponse result = api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "text/x-opml");

            assertThat(result.status()).as(result.toString()).isEqualTo(200);
            assertThat(result.json().path("imported").asInt()).isEqualTo(3);
            assertThat(result.json().path("errors").valueStream().map(e -> e.path("url").asString()))
                    .containsExactly(url("/slow/missing.xml"));
            assertThat(result.json().path("unchecked").valueStream().map(JsonNode::asString)).containsExactly(slow, slowAndMissing);
            Map<String, JsonNode> subscribed = subscriptions(alice);
            assertThat(subscribed).containsOnlyKeys(url("/slow/quick.xml"), slow, slowAndMissing);
            assertThat(subscribed.get(url("/slow/quick.xml")).path("source").path("title").asString()).as("fetched at import")
                    .isEqualTo("Quick feed");
            assertThat(subscribed.get(slowAndMissing).path("title").asString()).as("the outline's title, on her subscription")
                    .isEqualTo("Slow and missing");
            assertThat(subscribed.get(slowAndMissing).path("source").path("title").asString())
                    .as("nothing of the outline on the shared source").isNotEqualTo("Slow and missing");
            assertThat(subscribed.get(slow).path("title").asString()).isEqualTo("My slow one");
            assertThat(subscribed.get(slow).path("source").path("title").asString()).isNotEqualTo("My slow one");
        }
    }

    /** A transient answer (5xx, 429) is no reason to drop a feed: it is subscribed, listed, and crawled again. */
    @Test
    void feedsThatFailForNowAreSubscribedAndListedAsRetryingWhileMissingOnesAreNot() {
        TestUser alice = api.newUser("flaky");
        server.respond("/flaky/busy.xml", 503, Map.of(), "busy");
        server.respond("/flaky/broken.xml", 500, Map.of(), "oops");
        server.respond("/flaky/limited.xml", 429, Map.of(), "slow down");
        String opml = opml("""
                <outline type="rss" text="My busy one" xmlUrl="%s"/>
                <outline type="rss" text="My broken one" xmlUrl="%s"/>
                <outline type="rss" text="Limited" xmlUrl="%s"/>
                <outline type="rss" text="Missing" xmlUrl="%s"/>
                """.formatted(url("/flaky/busy.xml"), url("/flaky/broken.xml"), url("/flaky/limited.xml"), url("/flaky/missing.xml")));

        ApiResponse result = api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "text/x-opml");

        assertThat(result.status()).as(result.toString()).isEqualTo(200);
        assertThat(result.json().path("imported").asInt()).isEqualTo(3);
        assertThat(result.json().path("errors").valueStream().map(e -> e.path("url").asString()))
                .as("only the permanent answer keeps a feed out").containsExactly(url("/flaky/missing.xml"));
        assertThat(result.json().path("retrying").valueStream().map(e -> e.path("url").asString()))
                .containsExactly(url("/flaky/busy.xml"), url("/flaky/broken.xml"), url("/flaky/limited.xml"));
        assertThat(result.json().path("retrying").valueStream().map(e -> e.path("reason").asString()))
                .containsExactly("server_error", "server_error", "rate_limited");
        assertThat(result.json().path("retrying").valueStream().map(e -> e.path("message").asString()))
                .allMatch(m -> m.contains("retried"));
        Map<String, JsonNode> subscribed = subscriptions(alice);
        assertThat(subscribed).containsOnlyKeys(url("/flaky/busy.xml"), url("/flaky/broken.xml"), url("/flaky/limited.xml"));
        assertThat(subscribed.get(url("/flaky/busy.xml")).path("title").asString()).isEqualTo("My busy one");
        assertThat(subscribed.get(url("/flaky/broken.xml")).path("title").asString()).isEqualTo("My broken one");
    }

    /** An outline's title is the importer's: on their subscription, never on the source others follow too. */
    @Test
    void anOutlinesTitleStaysWithTheImportersSubscription() {
        TestUser alice = api.newUser("priv");
        TestUser bob = api.newUser("priv");
        server.respond("/priv/down.xml", 503, Map.of(), "");
        server.feed("/priv/up.xml", TestFeeds.numbered("The feed's own title", 1, Instant.now().minusSeconds(60)));
        String alices = opml("""
                <outline type="rss" text="Alice's private name" xmlUrl="%s" htmlUrl="https://alice.example/secret"/>
                <outline type="rss" text="Alice's other name" xmlUrl="%s" htmlUrl="https://alice.example/other"/>
                """.formatted(url("/priv/down.xml"), url("/priv/up.xml")));
        String bobs = opml("""
                <outline type="rss" text="Bob's" xmlUrl="%s"/>
                <outline type="rss" xmlUrl="%s"/>
                """.formatted(url("/priv/down.xml"), url("/priv/up.xml")));

        assertThat(api.send("POST", "/api/v1/subscriptions/import", alice.token(), alices, "text/x-opml").json()
                .path("imported").asInt()).isEqualTo(2);
        ApiResponse bobsImport = api.send("POST", "/api/v1/subscriptions/import", bob.token(), bobs, "text/x-opml");

        assertThat(bobsImport.json().path("imported").asInt()).isEqualTo(2);
        Map<String, JsonNode> hers = subscriptions(alice);
        assertThat(hers.get(url("/priv/down.xml")).path("title").asString()).isEqualTo("Alice's private name");
        assertThat(hers.get(url("/priv/up.xml")).path("title").asString()).isEqualTo("Alice's other name");
        assertThat(hers.get(url("/priv/up.xml")).path("source").path("title").asString()).isEqualTo("The feed's own title");
        Map<String, JsonNode> his = subscriptions(bob);
        assertThat(his.get(url("/priv/down.xml")).path("title").asString()).isEqualTo("Bob's");
        assertThat(his.get(url("/priv/up.xml")).path("source").path("title").asString()).isEqualTo("The feed's own title");
        String bobSees = api.get("/api/v1/subscriptions", bob.token()).body()
                + api.get("/api/v1/subscriptions.opml", bob.token()).body();
        assertThat(bobSees).doesNotContain("Alice").doesNotContain("alice.example");
        assertThat(his.get(url("/priv/down.xml")).path("source").path("site_url").isNull()).as("no outline htmlUrl on the source")
                .isTrue();
    }

    @Test
    void importLeavesAnExistingMediaFilterAlone() {
        TestUser alice = api.newUser("impm");
        server.feed("/impm.xml", TestFeeds.numbered("Filtered", 1, Instant.now().minusSeconds(60)));
        api.post("/api/v1/subscriptions", alice.token(), Map.of("url", url("/impm.xml"), "media", List.of("image")));

        ApiResponse result = api.send("POST", "/api/v1/subscriptions/import", alice.token(),
                opml("<outline xmlUrl=\"" + url("/impm.xml") + "\"/>"), "text/x-opml");

        assertThat(result.json().path("skipped").asInt()).isEqualTo(1);
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().get(0).path("media").get(0).asString()).isEqualTo("image");
    }

    @Test
    void exportIsOpmlOfTheCallersFeedsOnly() {
        TestUser alice = api.newUser("exp");
        TestUser bob = api.newUser("exp");
        server.feed("/exp.xml", TestFeeds.numbered("Exported & <escaped>", 1, Instant.now().minusSeconds(60)));
        String title = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", url("/exp.xml")))
                .json().path("source").path("title").asString();
        api.post("/api/v1/subscriptions", alice.token(), Map.of("user", bob.username()));

        ApiResponse exported = api.get("/api/v1/subscriptions.opml", alice.token());
        ApiResponse asOpml = api.send(api.builder("/api/v1/subscriptions.opml", alice.token()).header("Accept", "text/x-opml").GET());
        ApiResponse bobs = api.get("/api/v1/subscriptions.opml", bob.token());

        assertThat(exported.status()).isEqualTo(200);
        assertThat(exported.contentType()).startsWith("text/x-opml");
        assertThat(asOpml.status()).isEqualTo(200);
        assertThat(OpmlReader.read(exported.body().getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .containsExactly(new OpmlFeed(url("/exp.xml"), title, "https://example.org/"));
        assertThat(title).startsWith("Exported &");
        assertThat(bobs.body()).doesNotContain("/exp.xml");
        assertThat(OpmlReader.read(bobs.body().getBytes(java.nio.charset.StandardCharsets.UTF_8))).isEmpty();
        assertThat(api.get("/api/v1/subscriptions.opml", null).status()).isEqualTo(401);
    }

    @Test
    void whatIsExportedImportsIntoAnotherAccount() {
        TestUser alice = api.newUser("round");
        TestUser bob = api.newUser("round");
        server.feed("/round.xml", TestFeeds.numbered("Round", 1, Instant.now().minusSeconds(60)));
        api.post("/api/v1/subscriptions", alice.token(), Map.of("url", url("/round.xml")));

        String exported = api.get("/api/v1/subscriptions.opml", alice.token()).body();
        ApiResponse imported = api.send("POST", "/api/v1/subscriptions/import", bob.token(), exported, "text/x-opml");

        assertThat(imported.json().path("imported").asInt()).isEqualTo(1);
    }

    @Test
    void nestedOutlinesBecomeFoldersAndARoundTripKeepsFoldersAndTitles() {
        TestUser alice = api.newUser("fold");
        TestUser bob = api.newUser("fold");
        for (String name : List.of("one", "two", "three", "loose")) {
            server.feed("/fold/" + name + ".xml", TestFeeds.numbered("Feed " + name, 1, Instant.now().minusSeconds(60)));
        }
        String opml = opml("""
                <outline text="News">
                  <outline type="rss" text="One" title="My One" xmlUrl="%s"/>
                  <outline text="Deeper"><outline type="rss" text="Two" xmlUrl="%s"/></outline>
                </outline>
                <outline text="news"><outline type="rss" text="One" xmlUrl="%s"/></outline>
                <outline text="Tech"><outline type="rss" text="One" xmlUrl="%s"/></outline>
                <outline text="%s"><outline type="rss" text="Three" xmlUrl="%s"/></outline>
                <outline type="rss" text="Loose" xmlUrl="%s"/>
                """.formatted(url("/fold/one.xml"), url("/fold/two.xml"), url("/fold/one.xml"), url("/fold/one.xml"),
                "x".repeat(101), url("/fold/three.xml"), url("/fold/loose.xml")));

        ApiResponse result = api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "text/x-opml");
        Map<String, String> expected = Map.of(url("/fold/one.xml"), "My One [News, Tech]", url("/fold/two.xml"), "Two [Deeper]",
                url("/fold/three.xml"), "Three []", url("/fold/loose.xml"), "Loose []");
        String exported = api.get("/api/v1/subscriptions.opml", alice.token()).body();
        ApiResponse again = api.send("POST", "/api/v1/subscriptions/import", bob.token(), exported, "text/x-opml");

        assertThat(result.status()).as(result.toString()).isEqualTo(200);
        assertThat(result.json().path("imported").asInt()).isEqualTo(4);
        assertThat(result.json().path("folder_errors").get(0).path("message").asString()).contains("100 characters");
        assertThat(filed(alice)).isEqualTo(expected);
        assertThat(again.json().path("imported").asInt()).isEqualTo(4);
        assertThat(filed(bob)).as("the export imported into another account").isEqualTo(expected);
    }

    /** The person's subscriptions by their source's url. */
    private Map<String, JsonNode> subscriptions(TestUser user) {
        Map<String, JsonNode> byUrl = new java.util.HashMap<>();
        api.get("/api/v1/subscriptions", user.token()).json().forEach(sub -> byUrl.put(sub.path("source").path("url").asString(), sub));
        return byUrl;
    }

    /** Each subscription's url → "title [folders]". */
    private Map<String, String> filed(TestUser user) {
        Map<String, String> filed = new java.util.HashMap<>();
        api.get("/api/v1/subscriptions", user.token()).json().forEach(s -> filed.put(s.path("source").path("url").asString(),
                s.path("title").asString() + " " + s.path("folders").valueStream().map(f -> f.path("name").asString()).toList()));
        return filed;
    }

    @Test
    void hostileDocumentsAreRefusedCleanly() {
        TestUser alice = api.newUser("hostile");
        String lol = """
                <?xml version="1.0"?>
                <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
                <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
                <opml><body><outline text="&lol3;" xmlUrl="https://x.example/"/></body></opml>
                """;
        String xxe = """
                <?xml version="1.0"?>
                <!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
                <opml><body><outline text="&xxe;" xmlUrl="https://x.example/"/></body></opml>
                """;
        String externalDtd = """
                <?xml version="1.0"?>
                <!DOCTYPE opml SYSTEM "%s">
                <opml><body><outline xmlUrl="https://x.example/"/></body></opml>
                """.formatted(url("/evil.dtd"));
        String parameterEntity = """
                <?xml version="1.0"?>
                <!DOCTYPE opml [<!ENTITY %% remote SYSTEM "%s"> %%remote;]>
                <opml><body/></opml>
                """.formatted(url("/evil-param.dtd"));
        String tooMany = opml("<outline text=\"c\"/>".repeat(OpmlReader.MAX_OUTLINES + 1));

        for (String document : List.of(lol, xxe, externalDtd, parameterEntity, tooMany, "<opml><body>", "<rss/>", "not xml")) {
            ApiResponse response = api.send("POST", "/api/v1/subscriptions/import", alice.token(), document, "text/x-opml");
            assertThat(response.status()).as(response.toString()).isEqualTo(400);
            assertThat(response.contentType()).startsWith("application/problem+json");
            assertThat(response.body()).doesNotContain("root:");
        }
        assertThat(server.requests("/evil.dtd")).isEmpty();
        assertThat(server.requests("/evil-param.dtd")).isEmpty();
        assertThat(api.get("/api/v1/subscriptions", alice.token()).json().size()).isZero();
    }

    @Test
    void otherContentTypesAre415() {
        TestUser alice = api.newUser("ctype");
        String opml = opml("<outline xmlUrl=\"https://x.example/\"/>");

        ApiResponse json = api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "application/json");
        ApiResponse plain = api.send("POST", "/api/v1/subscriptions/import", alice.token(), opml, "text/plain");
        ApiResponse none = api.send("POST", "/api/v1/subscriptions/import", alice.token(), null, "text/x-opml");
        ApiResponse readOnly = api.send("POST", "/api/v1/subscriptions/import",
                api.createToken(alice.username(), alice.password(), "ro", "read"), opml, "text/x-opml");

        assertThat(json.status()).isEqualTo(415);
        assertThat(json.contentType()).startsWith("application/problem+json");
        assertThat(plain.status()).isEqualTo(415);
        assertThat(none.status()).isIn(400, 415);
        assertThat(readOnly.status()).isEqualTo(403);
    }

    private static String url(String path) {
        return server.url(path).toString();
    }

    private static String opml(String outlines) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head><title>t</title></head><body>\n"
                + outlines + "\n</body></opml>\n";
    }
}
