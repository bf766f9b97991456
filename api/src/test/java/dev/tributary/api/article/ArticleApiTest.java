package dev.tributary.api.article;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.api.testing.ApiClient;
import dev.tributary.api.testing.ApiResponse;
import dev.tributary.api.testing.ApiTest;
import dev.tributary.api.testing.TestUser;
import dev.tributary.api.timeline.Deliveries;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/v1/items/{id}/content} over HTTP against the whole app and a page server on
 * 127.0.0.1: the article read once and kept for every reader, only for items the caller may see,
 * refusals as 422 problems with the crawler's reasons, and a per-person allowance of fetches.
 */
@ApiTest
class ArticleApiTest {

    @RegisterExtension
    final FeedServerExtension site = new FeedServerExtension();

    @LocalServerPort int port;
    @Autowired Sources sources;
    @Autowired Subscriptions subscriptions;
    @Autowired Publisher publisher;
    @Autowired dev.tributary.crawler.ingest.FeedIngest ingest;
    @Autowired dev.tributary.pubsub.Items items;
    @Autowired List<dev.tributary.api.retention.RetentionJob> jobs;
    @Autowired org.springframework.jdbc.core.simple.JdbcClient jdbc;
    private ApiClient api;
    private Deliveries deliveries;
    private TestUser alice;
    private TestUser bob;
    private long feed;

    @BeforeEach
    void twoReadersOfAFeed() {
        api = new ApiClient(port);
        deliveries = new Deliveries(api, sources, subscriptions, publisher);
        alice = api.newUser("reader");
        bob = api.newUser("other");
        feed = deliveries.feed();
        deliveries.follow(alice, feed);
        deliveries.follow(bob, feed);
    }

    static String page(String title) {
        StringBuilder page = new StringBuilder("<html><head><title>" + title + "</title></head><body><nav><a href='/'>Home</a></nav><article>");
        for (int i = 0; i < 6; i++) {
            page.append("<p>Paragraph ").append(i).append(" of the whole story, which the feed only teased, with commas,"
                    + " clauses, and enough words to read as prose. <img src='/img/").append(i).append(".png'></p>");
        }
        return page.append("<script>steal()</script></article></body></html>").toString();
    }

    private long item(String url) {
        String guid = UUID.randomUUID().toString();
        return deliveries.publish(feed, new NewItem(guid, "Teaser", "<p>The first line…</p>", url, null, MediaType.TEXT,
                List.of(), List.of(), Instant.now())).getFirst();
    }

    @Test
    void theBylineLazyImagesAndAVideoPlayerAreKeptAndServedToEveryReader() {
        String page = page("Filmed").replace("<head>", "<head><meta name='author' content='Tomás Reyes'>")
                .replace("<script>steal()</script>", "<img src='data:image/gif;base64,R0lGODlh' data-src='/img/lazy.jpg' alt='lazy'>"
                        + "<iframe src='https://www.youtube.com/embed/dQw4w9WgXcQ'></iframe><iframe src='https://evil.example/x'></iframe>");
        site.feed("/filmed", page, "text/html; charset=utf-8", Map.of());
        long item = item(site.url("/filmed").toString());

        ApiResponse first = api.get("/api/v1/items/" + item + "/content", alice.token());
        ApiResponse kept = api.get("/api/v1/items/" + item + "/content", bob.token());

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        assertThat(first.json().path("byline").asString()).isEqualTo("Tomás Reyes");
        assertThat(first.json().path("content").asString())
                .contains("src=\"" + site.url("/img/lazy.jpg") + "\"", "<iframe src=\"https://www.youtube.com/embed/dQw4w9WgXcQ\"",
                        "sandbox=\"allow-scripts allow-same-origin allow-presentation allow-popups\"")
                .doesNotContain("evil.example", "data:image");
        assertThat(kept.json().path("byline").asString()).as("read back from the kept row").isEqualTo("Tomás Reyes");
        assertThat(kept.json().path("content").asString()).isEqualTo(first.json().path("content").asString());
        assertThat(site.requests("/filmed")).hasSize(1);
    }

    @Test
    void theArticleIsReadOnceAndKeptForEveryReader() {
        site.feed("/story", page("The whole story"), "text/html; charset=utf-8", Map.of());
        long item = item(site.url("/story").toString());

        ApiResponse first = api.get("/api/v1/items/" + item + "/content", alice.token());

        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        JsonNode article = first.json();
        assertThat(article.path("item_id").asString()).isEqualTo(Long.toString(item));
        assertThat(article.path("url").asString()).isEqualTo(site.url("/story").toString());
        assertThat(article.path("title").asString()).isEqualTo("The whole story");
        assertThat(article.path("content").asString()).contains("Paragraph 5 of the whole story", "src=\"" + site.url("/img/5.png") + "\"")
                .doesNotContain("<script", "steal()", "Home");
        assertThat(article.path("truncated").asBoolean()).isFalse();
        assertThat(article.has("byline")).as("the page names no author: byline is null").isTrue();
        assertThat(article.path("byline").isNull()).isTrue();
        assertThat(Instant.parse(article.path("fetched_at").asString())).isBefore(Instant.now().plusSeconds(1));

        ApiResponse second = api.get("/api/v1/items/" + item + "/content", bob.token());
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.json().path("content").asString()).isEqualTo(article.path("content").asString());
        assertThat(site.requests("/story")).as("kept for every reader").hasSize(1);
    }

    @Test
    void anItemTheCallerMayNotSeeIsNotFoundAndNotFetched() {
        site.feed("/club", page("Members only"), "text/html", Map.of());
        String group = api.post("/api/v1/groups", alice.token(), Map.of("name", "Secret club")).json().path("id").asString();
        ApiResponse posted = api.post("/api/v1/groups/" + group + "/posts", alice.token(),
                Map.of("text", "read this", "url", site.url("/club").toString()));
        assertThat(posted.status()).as(posted.toString()).isEqualTo(201);
        String groupItem = posted.json().path("id").asString();

        ApiResponse hidden = api.get("/api/v1/items/" + groupItem + "/content", bob.token());

        assertThat(hidden.status()).isEqualTo(404);
        assertThat(hidden.contentType()).startsWith("application/problem+json");
        assertThat(site.requests("/club")).isEmpty();
        assertThat(api.get("/api/v1/items/" + groupItem + "/content", alice.token()).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/items/777/content", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/items/nope/content", alice.token()).status()).isEqualTo(404);
        assertThat(api.get("/api/v1/items/" + groupItem + "/content", null).status()).isEqualTo(401);
    }

    @Test
    void pagesThatCannotGiveAnArticleAre422WithTheReason() {
        site.redirect("/inside", 302, "http://10.0.0.7/admin");
        site.respond("/paper.pdf", 200, Map.of("Content-Type", "application/pdf"), "%PDF-1.7");
        site.respond("/gone", 404, Map.of(), "no");

        assertRefused(item(site.url("/inside").toString()), "unreachable");
        assertRefused(item("http://169.254.169.254/latest/meta-data/"), "unreachable");
        assertRefused(item(site.url("/paper.pdf").toString()), "not_html");
        assertRefused(item(site.url("/gone").toString()), "not_found");
        assertRefused(item(null), "invalid_url");
    }

    @Test
    void aRedirectToLoopbackIsRefusedRecordedAndNamedAsAProblem() {
        // The test server's 127.0.0.0/8 is allowed (tributary.crawler.allow-private); IPv6 loopback is not.
        site.redirect("/to-loopback", 302, "http://[::1]:" + site.port() + "/admin");
        long item = item(site.url("/to-loopback").toString());

        assertRefused(item, "unreachable");
        ApiResponse again = api.get("/api/v1/items/" + item + "/content", bob.token());
        assertThat(again.status()).isEqualTo(422);
        assertThat(again.json().path("reason").asString()).isEqualTo("unreachable");
        assertThat(again.json().path("detail").asString()).doesNotContain("::1");
        assertThat(site.requests("/to-loopback")).as("the refusal is kept: another reader causes no fetch").hasSize(1);
    }

    @Test
    void aFiftyMegabytePageIsReadOnlyToTheLimitAndRefused() throws Exception {
        AtomicLong sent = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            // No Content-Length: the body is read until it crosses the 5 MB page limit, then the fetcher hangs up.
            pool.submit(() -> {
                try (Socket socket = server.accept(); OutputStream out = socket.getOutputStream()) {
                    socket.getInputStream().read(new byte[8192]);
                    out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<html><body><p>"
                            .getBytes(StandardCharsets.US_ASCII));
                    byte[] chunk = "words and more words ".repeat(3000).getBytes(StandardCharsets.US_ASCII);
                    while (sent.get() < 50L << 20) {
                        out.write(chunk);
                        sent.addAndGet(chunk.length);
                    }
                } catch (IOException closedByTheFetcher) {
                    // expected: the fetcher hangs up once the page crosses its limit
                }
                return null;
            });

            assertRefused(item("http://127.0.0.1:" + server.getLocalPort() + "/huge"), "too_large");
        }
        assertThat(sent.get()).isLessThan(50L << 20);
    }

    @Test
    void aPersonMayCauseOnlySoManyFetchesAMinuteButReadKeptArticlesFreely() {
        site.feed("/kept", page("Kept"), "text/html", Map.of());
        long kept = item(site.url("/kept").toString());
        assertThat(api.get("/api/v1/items/" + kept + "/content", bob.token()).status()).isEqualTo(200);
        TestUser eager = api.newUser("eager");
        deliveries.follow(eager, feed);
        for (int i = 0; i < 10; i++) {
            site.feed("/many/" + i, page("Story " + i), "text/html", Map.of());
            long item = item(site.url("/many/" + i).toString());
            assertThat(api.get("/api/v1/items/" + item + "/content", eager.token()).status()).isEqualTo(200);
        }
        site.feed("/one-too-many", page("Too many"), "text/html", Map.of());

        ApiResponse refused = api.get("/api/v1/items/" + item(site.url("/one-too-many").toString()) + "/content", eager.token());

        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.header("Retry-After")).isNotBlank();
        assertThat(site.requests("/one-too-many")).isEmpty();
        assertThat(api.get("/api/v1/items/" + kept + "/content", eager.token()).status()).as("a kept article costs nothing").isEqualTo(200);
    }

    @Test
    void aSubscriptionReadInFullHasNewArticlesFetchedBeforeAnyoneAsks() throws Exception {
        site.feed("/teasers.xml", "<rss version='2.0'><channel><title>Teasers</title></channel></rss>");
        ApiResponse subscribed = api.post("/api/v1/subscriptions", alice.token(), Map.of("url", site.url("/teasers.xml").toString()));
        assertThat(subscribed.status()).as(subscribed.toString()).isEqualTo(201);
        assertThat(subscribed.json().path("full_content").asBoolean()).isFalse();
        String id = subscribed.json().path("id").asString();
        long source = Long.parseLong(subscribed.json().path("source").path("id").asString());

        ApiResponse patched = api.send("PATCH", "/api/v1/subscriptions/" + id, alice.token(), Map.of("full_content", true), "application/json");
        assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
        assertThat(patched.json().path("full_content").asBoolean()).isTrue();
        for (JsonNode listed : api.get("/api/v1/subscriptions", alice.token()).json()) {
            assertThat(listed.path("full_content").asBoolean()).as("only the one asked for").isEqualTo(listed.path("id").asString().equals(id));
        }
        assertThat(api.send("PATCH", "/api/v1/subscriptions/" + id, alice.token(), Map.of("full_content", "yes"), "application/json")
                .status()).isEqualTo(400);

        site.feed("/teased/1", page("Teased"), "text/html", Map.of());
        String rss = "<rss version='2.0'><channel><title>Teasers</title><item><guid>x1</guid><title>Teased</title><link>"
                + site.url("/teased/1") + "</link><description>The first line</description></item></channel></rss>";
        ingest.publish(source, ingest.read(rss.getBytes(java.nio.charset.StandardCharsets.UTF_8), "application/rss+xml",
                site.url("/teasers.xml"), Instant.now()));
        long item = items.ofSource(source, null, null, 1).getFirst().id();
        dev.tributary.storage.testing.Await.until("the article fetched ahead of readers", () -> !site.requests("/teased/1").isEmpty());

        ApiResponse read = api.get("/api/v1/items/" + item + "/content", bob.token());
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().path("content").asString()).contains("Paragraph 5");
        assertThat(site.requests("/teased/1")).hasSize(1);

        assertThat(wishes(alice, source)).isEqualTo(1);
        assertThat(api.delete("/api/v1/subscriptions/" + id, alice.token()).status()).isEqualTo(204);
        assertThat(wishes(alice, source)).as("the row went with the subscription").isZero();
        assertThat(api.post("/api/v1/subscriptions", alice.token(), Map.of("url", site.url("/teasers.xml").toString()))
                .json().path("full_content").asBoolean()).as("unsubscribing withdrew the wish").isFalse();
    }

    private long wishes(TestUser person, long source) {
        return jdbc.sql("SELECT COUNT(*) FROM article_readers WHERE user_id = ? AND source_id = ?")
                .params(person.numericId(), source).query(Long.class).single();
    }

    @Test
    void anArticleKeptPastItsTimeIsRemovedAndReadAfreshByTheNextReader() {
        site.feed("/old", page("Old news"), "text/html", Map.of());
        long item = item(site.url("/old").toString());
        assertThat(api.get("/api/v1/items/" + item + "/content", alice.token()).status()).isEqualTo(200);
        jdbc.sql("UPDATE item_articles SET fetched_at = ? WHERE item_id = ?")
                .params(java.sql.Timestamp.from(Instant.now().minus(java.time.Duration.ofDays(31))), item).update();
        dev.tributary.api.retention.RetentionJob job = jobs.stream().filter(j -> j.name().equals("article-cache")).findFirst().orElseThrow();

        long removed = job.sweep(n -> { });

        assertThat(removed).isGreaterThanOrEqualTo(1);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM item_articles WHERE item_id = ?").param(item).query(Long.class).single()).isZero();
        assertThat(api.get("/api/v1/items/" + item + "/content", bob.token()).status()).isEqualTo(200);
        assertThat(site.requests("/old")).hasSize(2);
    }

    private void assertRefused(long item, String reason) {
        ApiResponse refused = api.get("/api/v1/items/" + item + "/content", alice.token());
        assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().path("type").asString()).isEqualTo("urn:tributary:problem:article-unavailable");
        assertThat(refused.json().path("reason").asString()).isEqualTo(reason);
        assertThat(refused.json().path("detail").asString()).doesNotContain("10.0.0.7", "169.254");
    }
}
