package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.crawler.testing.FeedServerExtension;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Full articles against a real page server on 127.0.0.1 and the embedded MariaDB: extraction and
 * sanitising, keeping (a second reader causes no fetch, a hundred at once cause one), and every
 * hostile page refused with its reason and never an exception of another kind.
 */
@WithEmbeddedCrawler
class FullArticlesTest {

    @RegisterExtension
    final FeedServerExtension site = new FeedServerExtension();

    @Autowired FullArticles articles;
    @Autowired dev.tributary.pubsub.Switches switches;
    @Autowired dev.tributary.crawler.ingest.FeedIngest ingest;
    @Autowired dev.tributary.pubsub.Sources sources;
    @Autowired dev.tributary.pubsub.Subscriptions subscriptions;
    @Autowired dev.tributary.pubsub.Items items;
    @Autowired dev.tributary.crawler.article.ArticleQueue queue;

    static String articlePage(String title) {
        StringBuilder page = new StringBuilder("<!doctype html><html><head><title>" + title + " | Example Blog</title></head><body>"
                + "<nav><a href='/'>Home</a> <a href='/about'>About</a> <a href='/archive'>Archive</a></nav>"
                + "<div class='sidebar'><a href='/ads'>Buy things</a></div><article><h1>" + title + "</h1>");
        for (int i = 0; i < 8; i++) {
            page.append("<p onclick='steal()'>Paragraph ").append(i).append(" of the story, long enough to be read as prose,"
                    + " with commas, clauses, and sentences that a reader would want to see in full. <a href='notes/")
                    .append(i).append("'>a note</a> <img src='/pictures/").append(i).append(".png' onerror='steal()'>"
                    + "<script>steal()</script><a href='javascript:steal()'>bad link</a></p>");
        }
        return page.append("</article><footer>Copyright, all rights reserved</footer></body></html>").toString();
    }

    @Test
    void extractsTheArticleSanitisedWithUrlsAbsoluteAgainstTheFinalPage() {
        site.feed("/posts/story", articlePage("A long story"), "text/html; charset=utf-8", Map.of());
        site.redirect("/p/1", 301, site.url("/posts/story").toString());
        long item = newItem();

        Article article = articles.article(item, site.url("/p/1").toString());

        assertThat(article.html()).contains("Paragraph 0 of the story", "Paragraph 7 of the story")
                .contains("href=\"" + site.url("/posts/notes/3") + "\"")
                .contains("src=\"" + site.url("/pictures/3.png") + "\"")
                .contains("rel=\"nofollow noopener\"")
                .doesNotContain("<script", "steal()", "onclick", "onerror", "javascript:", "Buy things", "Copyright");
        assertThat(article.title()).contains("A long story");
        assertThat(article.url()).isEqualTo(site.url("/posts/story").toString());
        assertThat(article.truncated()).isFalse();
        assertThat(site.requests("/posts/story").getFirst().header("Accept")).startsWith("text/html");
    }

    @Test
    void aKeptArticleIsAnsweredWithoutFetchingAgain() {
        site.feed("/kept", articlePage("Kept"), "text/html", Map.of());
        long item = newItem();

        Article first = articles.article(item, site.url("/kept").toString());
        Article second = articles.article(item, site.url("/kept").toString());

        assertThat(second.html()).isEqualTo(first.html());
        assertThat(articles.kept(item)).isPresent();
        assertThat(site.requests("/kept")).hasSize(1);
        assertThat(articles.keptAll(List.of(item, newItem()))).containsOnlyKeys(item);
    }

    @Test
    void aHundredReadersAtOnceCauseOneFetch() throws Exception {
        // A page slower than the readers' arrival, so they all ask while its fetch is under way.
        site.feed("/popular", articlePage("Popular"), "text/html", Map.of()).latency(Duration.ofMillis(500));
        long item = newItem();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Article>> readers = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 100; i++) {
                readers.add(pool.submit(() -> {
                    start.await();
                    return articles.article(item, site.url("/popular").toString());
                }));
            }
            start.countDown();
            for (Future<Article> reader : readers) {
                assertThat(reader.get().html()).contains("Paragraph 5");
            }
        }
        assertThat(site.requests("/popular")).hasSize(1);
    }

    @Test
    void aRedirectIntoThePrivateNetworkIsRefused() {
        for (String inside : List.of("http://10.1.2.3/admin", "http://169.254.169.254/latest/meta-data/",
                "http://[::1]:" + site.port() + "/kept", "http://192.168.0.1/")) {
            String path = "/hop-" + Math.abs(inside.hashCode());
            site.redirect(path, 302, inside);
            assertRefused(() -> articles.article(newItem(), site.url(path).toString()), RejectionReason.BLOCKED_ADDRESS);
        }
    }

    @Test
    void aRefusedRedirectIsRecordedAndAnswersLaterReadersWithoutAFetch() {
        site.redirect("/hop-loopback", 302, "http://[::1]:" + site.port() + "/kept");
        long item = newItem();

        assertRefused(() -> articles.article(item, site.url("/hop-loopback").toString()), RejectionReason.BLOCKED_ADDRESS);
        assertRefused(() -> articles.kept(item), RejectionReason.BLOCKED_ADDRESS);
        assertRefused(() -> articles.article(item, site.url("/hop-loopback").toString()), RejectionReason.BLOCKED_ADDRESS);

        assertThat(site.requests("/hop-loopback")).as("the second reader is answered from the record").hasSize(1);
    }

    @Test
    void aPageNamingAPrivateAddressIsRefusedWithoutAConnection() {
        assertRefused(() -> articles.article(newItem(), "http://10.0.0.1/story"), RejectionReason.BLOCKED_ADDRESS);
        assertRefused(() -> articles.article(newItem(), "file:///etc/passwd"), RejectionReason.INVALID_URL);
        assertRefused(() -> articles.article(newItem(), null), RejectionReason.INVALID_URL);
    }

    @Test
    void aFiftyMegabytePageIsCutOffAtTheLimit() throws Exception {
        AtomicLong sent = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            // No Content-Length: the body is read until it crosses the 5 MB page limit, then the connection closes.
            pool.submit(() -> streamHugePage(server, 50L << 20, sent));
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/huge";

            assertRefused(() -> articles.article(newItem(), url), RejectionReason.TOO_LARGE);
        }
        assertThat(sent.get()).isLessThan(50L << 20);
    }

    @Test
    void aDeclaredFiftyMegabytePageIsRefusedUnread() throws Exception {
        AtomicLong sent = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            pool.submit(() -> {
                try (Socket socket = server.accept(); OutputStream out = socket.getOutputStream()) {
                    socket.getInputStream().read(new byte[8192]);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + (50L << 20) + "\r\n\r\n<html>")
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    socket.getInputStream().read(); // until the fetcher hangs up
                }
                return null;
            });
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/declared";
            assertRefused(() -> articles.article(newItem(), url), RejectionReason.TOO_LARGE);
        }
    }

    @Test
    void aPageThatIsNotHtmlIsRefused() {
        site.respond("/paper.pdf", 200, Map.of("Content-Type", "application/pdf"), "%PDF-1.7 not an article");
        site.feed("/feed.xml", "<rss version='2.0'><channel><title>x</title></channel></rss>");
        assertRefused(() -> articles.article(newItem(), site.url("/paper.pdf").toString()), RejectionReason.NOT_HTML);
        assertRefused(() -> articles.article(newItem(), site.url("/feed.xml").toString()), RejectionReason.NOT_HTML);
    }

    @Test
    void aPageWithNothingToReadIsRefused() {
        site.feed("/empty", "<html><head><title>A title is not an article</title></head><body><nav></nav>"
                + "<noscript>Turn JavaScript on</noscript><script>render()</script></body></html>", "text/html", Map.of());
        assertRefused(() -> articles.article(newItem(), site.url("/empty").toString()), RejectionReason.NO_ARTICLE);
    }

    @Test
    void aPageBuiltToExhaustTheExtractorIsRefusedBeforeIt() {
        // 100,000 nested divs (1.2 MB) kept Readability busy for minutes; 100,000 flat paragraphs for seconds.
        String deep = "<div>".repeat(100_000) + "text, more text, and words" + "</div>".repeat(100_000);
        site.feed("/deep", "<html><body>" + deep + "</body></html>", "text/html", Map.of());
        site.feed("/wide", "<html><body>" + "<p>a few words, and more</p>".repeat(100_000) + "</body></html>", "text/html", Map.of());
        assertRefused(() -> articles.article(newItem(), site.url("/deep").toString()), RejectionReason.NO_ARTICLE);
        assertRefused(() -> articles.article(newItem(), site.url("/wide").toString()), RejectionReason.NO_ARTICLE);
    }

    @Test
    void aSlowPageTimesOutAndTheFailureIsKeptForLaterReaders() {
        site.feed("/slow", articlePage("Slow"), "text/html", Map.of()).latency(Duration.ofSeconds(5));
        long item = newItem();

        assertRefused(() -> articles.article(item, site.url("/slow").toString()), RejectionReason.TIMEOUT);
        assertRefused(() -> articles.article(item, site.url("/slow").toString()), RejectionReason.TIMEOUT);
        assertRefused(() -> articles.kept(item), RejectionReason.TIMEOUT);

        assertThat(site.requests("/slow")).hasSize(1);
    }

    @Test
    void aServerErrorIsRefusedWithItsReason() {
        site.respond("/broken", 500, Map.of("Content-Type", "text/html"), "<html><body>oops</body></html>");
        site.respond("/missing", 404, Map.of("Content-Type", "text/html"), "<html><body>no</body></html>");
        assertRefused(() -> articles.article(newItem(), site.url("/broken").toString()), RejectionReason.SERVER_ERROR);
        assertRefused(() -> articles.article(newItem(), site.url("/missing").toString()), RejectionReason.NOT_FOUND);
    }

    @Test
    void aFeedSomeoneReadsInFullHasEachNewArticleFetchedOnceAheadOfReaders() throws Exception {
        site.feed("/ahead/1", articlePage("First"), "text/html", Map.of());
        site.feed("/ahead/2", articlePage("Second"), "text/html", Map.of());
        String rss = "<rss version='2.0'><channel><title>Teasers</title><link>" + site.url("/") + "</link>"
                + "<item><guid>t1</guid><title>First</title><link>" + site.url("/ahead/1") + "</link><description>The first line</description></item>"
                + "<item><guid>t2</guid><title>Second</title><link>" + site.url("/ahead/2") + "</link><description>The first line</description></item>"
                + "</channel></rss>";
        long reader = ThreadLocalRandom.current().nextLong(1, 1L << 40);
        long source = sources.feed(site.url("/ahead.xml").toString()).id();
        subscriptions.subscribe(reader, source, null);
        articles.readInFull(reader, source, true);
        assertThat(articles.readInFull(reader)).contains(source);

        ingest.publish(source, ingest.read(rss.getBytes(StandardCharsets.UTF_8), "application/rss+xml", site.url("/ahead.xml"), java.time.Instant.now()));
        List<Long> ids = items.ofSource(source, null, null, 10).stream().map(dev.tributary.pubsub.Stored::id).toList();

        assertThat(ids).hasSize(2);
        dev.tributary.storage.testing.Await.until("both articles fetched ahead of readers",
                () -> ids.stream().allMatch(id -> articles.kept(id).isPresent()));
        ingest.publish(source, ingest.read(rss.getBytes(StandardCharsets.UTF_8), "application/rss+xml", site.url("/ahead.xml"), java.time.Instant.now()));
        assertThat(articles.article(ids.getFirst(), site.url("/ahead/1").toString()).html()).contains("Paragraph 7");
        assertThat(site.requests("/ahead/1")).as("once, however often the feed is read").hasSize(1);
        assertThat(site.requests("/ahead/2")).hasSize(1);
    }

    @Test
    void aWishOfSomeoneNoLongerSubscribedFetchesNothing() throws Exception {
        site.feed("/lapsed/1", articlePage("Lapsed"), "text/html", Map.of());
        String rss = "<rss version='2.0'><channel><title>Lapsed</title>"
                + "<item><guid>l1</guid><title>One</title><link>" + site.url("/lapsed/1") + "</link></item></channel></rss>";
        long reader = ThreadLocalRandom.current().nextLong(1, 1L << 40);
        long source = sources.feed(site.url("/lapsed.xml").toString()).id();
        articles.readInFull(reader, source, true);

        ingest.publish(source, ingest.read(rss.getBytes(StandardCharsets.UTF_8), "application/rss+xml", site.url("/lapsed.xml"), java.time.Instant.now()));

        assertThat(queue.size()).isZero();
        assertThat(site.requests("/lapsed/1")).isEmpty();
    }

    @Test
    void lapsedWishesDoNotHideALiveOneAndAreDroppedOnTheWay() throws Exception {
        site.feed("/crowded/1", articlePage("Crowded"), "text/html", Map.of());
        String rss = "<rss version='2.0'><channel><title>Crowded</title>"
                + "<item><guid>c1</guid><title>One</title><link>" + site.url("/crowded/1") + "</link></item></channel></rss>";
        long source = sources.feed(site.url("/crowded.xml").toString()).id();
        long lapsed = 0;
        for (int i = 0; i < 30; i++) { // wishes left by unsubscribes before they were withdrawn with the subscription
            lapsed = ThreadLocalRandom.current().nextLong(1, 1L << 40);
            articles.readInFull(lapsed, source, true);
        }
        long reader = (1L << 41) + ThreadLocalRandom.current().nextLong(1, 1L << 20); // after every lapsed one in the key
        subscriptions.subscribe(reader, source, null);
        articles.readInFull(reader, source, true);

        ingest.publish(source, ingest.read(rss.getBytes(StandardCharsets.UTF_8), "application/rss+xml", site.url("/crowded.xml"), java.time.Instant.now()));
        long id = items.ofSource(source, null, null, 1).getFirst().id();
        dev.tributary.storage.testing.Await.until("the subscribed reader's wish fetched the article ahead",
                () -> articles.kept(id).isPresent());
        assertThat(articles.readInFull(lapsed)).as("the lapsed wishes were dropped on the way").doesNotContain(source);
        assertThat(articles.readInFull(reader)).contains(source);
    }

    @Test
    void switchedOffOnlyKeptArticlesAreServed() {
        site.feed("/switch/kept", articlePage("Kept before"), "text/html", Map.of());
        site.feed("/switch/new", articlePage("New"), "text/html", Map.of());
        long kept = newItem();
        articles.article(kept, site.url("/switch/kept").toString());
        switches.set(dev.tributary.pubsub.Feature.FULL_ARTICLES, false);
        try {
            assertThat(articles.article(kept, site.url("/switch/kept").toString()).html()).contains("Paragraph 3");
            assertThatThrownBy(() -> articles.article(newItem(), site.url("/switch/new").toString()))
                    .isInstanceOf(dev.tributary.pubsub.FeatureSwitchedOffException.class);
            assertThat(site.requests("/switch/new")).isEmpty();
        } finally {
            switches.set(dev.tributary.pubsub.Feature.FULL_ARTICLES, true);
        }
    }

    private static void assertRefused(ThrowingCallable call, RejectionReason reason) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ArticleUnavailableException.class,
                e -> assertThat(e.reason()).as(e.getMessage()).isEqualTo(reason));
    }

    private static long newItem() {
        return ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    }

    private static void streamHugePage(ServerSocket server, long size, AtomicLong sent) {
        try (Socket socket = server.accept(); OutputStream out = socket.getOutputStream()) {
            socket.getInputStream().read(new byte[8192]);
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n<html><body><p>"
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = "words and more words ".repeat(3000).getBytes(StandardCharsets.US_ASCII);
            while (sent.get() < size) {
                out.write(chunk);
                sent.addAndGet(chunk.length);
            }
        } catch (IOException closedByTheFetcher) {
            // expected: the fetcher hangs up once the page crosses its limit
        }
    }
}
