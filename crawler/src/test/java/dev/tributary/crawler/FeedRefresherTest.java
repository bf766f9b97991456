package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.refresh.CrawlMetrics;
import dev.tributary.crawler.schedule.CrawlState;
import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.CrawlStatusKind;
import dev.tributary.crawler.schedule.FetchRecord;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;

@WithEmbeddedCrawler
class FeedRefresherTest {

    private static final Instant NEWEST = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);

    @Autowired Crawl crawl;
    @Autowired FeedResolver resolver;
    @Autowired CrawlStates states;
    @Autowired SourceHealth health;
    @Autowired Sources sources;
    @Autowired Items items;
    @Autowired CrawlMetrics metrics;

    // One server per test: the tests of a blocked address assert that it got no request at all.
    @RegisterExtension
    final FeedServerExtension server = new FeedServerExtension();
    private final String prefix = "/" + UUID.randomUUID();

    @Test
    void aFetchPublishesTheEntriesAndRecordsTheFeedsHealth() {
        server.feed(prefix + "/feed.xml", TestFeeds.numbered("Alpha", 3, NEWEST));
        long feed = register("/feed.xml");

        FetchRecord record = crawl.refresh(feed);

        assertThat(record.status()).isEqualTo(CrawlStatusKind.OK);
        assertThat(record.httpStatus()).isEqualTo(200);
        assertThat(titles(feed)).containsExactly("Alpha entry 3", "Alpha entry 2", "Alpha entry 1");
        assertThat(sources.get(feed).body().title()).isEqualTo("Alpha");
        CrawlState state = crawl.state(feed);
        assertThat(state.etag()).isNotBlank();
        assertThat(state.lastFetchedAt()).isNotNull();
        assertThat(state.nextFetchAt()).isAfter(Instant.now().plus(Duration.ofMinutes(50)));
        assertThat(health.of(feed)).hasValueSatisfying(status -> {
            assertThat(status.status()).isEqualTo("ok");
            assertThat(status.lastError()).isNull();
        });
        assertThat(server.requests(prefix + "/feed.xml").getFirst().header("User-Agent")).contains("Tributary");
    }

    @Test
    void anUnchangedFeedAnswers304AndIsNotParsed() {
        server.feed(prefix + "/feed.xml", TestFeeds.numbered("Beta", 2, NEWEST));
        long feed = register("/feed.xml");
        crawl.refresh(feed);
        String etag = crawl.state(feed).etag();
        long parsed = metrics.parses();

        FetchRecord record = crawl.refresh(feed);

        assertThat(server.requests(prefix + "/feed.xml")).hasSize(2);
        assertThat(server.requests(prefix + "/feed.xml").get(1).header("If-None-Match")).isEqualTo(etag);
        assertThat(record.httpStatus()).isEqualTo(304);
        assertThat(record.status()).isEqualTo(CrawlStatusKind.OK);
        assertThat(metrics.parses()).isEqualTo(parsed);
        assertThat(crawl.state(feed).etag()).isEqualTo(etag);
        assertThat(record.interval()).as("hourly entries, then a quiet fetch: asked less often")
                .isEqualTo(Duration.ofMinutes(90));
    }

    @Test
    void aChangedEntryUpdatesTheStoredItemInPlace() {
        Instant when = NEWEST.minusSeconds(60);
        server.feed(prefix + "/feed.xml", TestFeeds.rss("Gamma", List.of(new TestFeeds.Entry("g-1", "First title", "body", when))));
        long feed = register("/feed.xml");
        crawl.refresh(feed);
        long id = items.ofSource(feed, null, null, 10).getFirst().id();

        server.feed(prefix + "/feed.xml", TestFeeds.rss("Gamma", List.of(new TestFeeds.Entry("g-1", "Corrected title", "body", when))));
        crawl.refresh(feed);

        List<Stored<Item>> stored = items.ofSource(feed, null, null, 10);
        assertThat(stored).hasSize(1);
        assertThat(stored.getFirst().id()).isEqualTo(id);
        assertThat(stored.getFirst().body().title()).isEqualTo("Corrected title");
    }

    @Test
    void aPermanentRedirectMovesTheFeed() {
        server.redirect(prefix + "/old.xml", 301, server.url(prefix + "/new.xml").toString());
        server.feed(prefix + "/new.xml", TestFeeds.numbered("Delta", 1, NEWEST));
        long feed = register("/old.xml");

        crawl.refresh(feed);
        crawl.refresh(feed);

        assertThat(crawl.state(feed).url()).isEqualTo(server.url(prefix + "/new.xml"));
        assertThat(sources.get(feed).body().url()).isEqualTo(server.url(prefix + "/new.xml").toString());
        assertThat(server.requests(prefix + "/old.xml")).hasSize(1);
        assertThat(server.requests(prefix + "/new.xml")).hasSize(2);
    }

    @Test
    void aTemporaryRedirectKeepsTheUrl() {
        server.redirect(prefix + "/feed.xml", 302, prefix + "/today.xml");
        server.feed(prefix + "/today.xml", TestFeeds.numbered("Epsilon", 1, NEWEST));
        long feed = register("/feed.xml");

        FetchRecord record = crawl.refresh(feed);

        assertThat(record.status()).isEqualTo(CrawlStatusKind.OK);
        assertThat(crawl.state(feed).url()).isEqualTo(server.url(prefix + "/feed.xml"));
        assertThat(titles(feed)).containsExactly("Epsilon entry 1");
    }

    @Test
    void aGoneFeedIsNeverFetchedAgainAndItsItemsAreTombstoned() {
        server.feed(prefix + "/feed.xml", TestFeeds.numbered("Zeta", 2, NEWEST));
        long feed = register("/feed.xml");
        crawl.refresh(feed);
        assertThat(titles(feed)).hasSize(2);

        server.respond(prefix + "/feed.xml", 410, Map.of(), "gone");
        FetchRecord record = crawl.refresh(feed);

        assertThat(record.status()).isEqualTo(CrawlStatusKind.GONE);
        assertThat(titles(feed)).isEmpty();
        assertThat(states.claim(feed, "test", Duration.ofSeconds(5))).isEmpty();
        assertThat(health.of(feed)).hasValueSatisfying(status -> {
            assertThat(status.status()).isEqualTo("gone");
            assertThat(status.nextFetchAt()).isNull();
            assertThat(status.lastErrorKey()).isEqualTo("gone");
        });
        assertThat(crawl.state(feed).nextFetchAt()).isAfter(Instant.parse("9000-01-01T00:00:00Z"));
    }

    @Test
    void serverErrorsBackOffExponentiallyAndShowOnTheSourceUntilItRecovers() {
        server.respond(prefix + "/feed.xml", 500, Map.of(), "oops");
        long feed = register("/feed.xml");

        List<Duration> delays = List.of(crawl.refresh(feed), crawl.refresh(feed), crawl.refresh(feed)).stream()
                .map(FetchRecord::nextFetchIn).toList();

        assertThat(delays).containsExactly(Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofMinutes(20));
        assertThat(crawl.state(feed).consecutiveErrors()).isEqualTo(3);
        assertThat(health.of(feed)).hasValueSatisfying(status -> {
            assertThat(status.status()).isEqualTo("error");
            assertThat(status.lastErrorKey()).isEqualTo("server_error");
            assertThat(status.lastError()).isNotBlank();
            assertThat(status.lastHttpStatus()).isEqualTo(500);
            assertThat(status.nextFetchAt()).isAfter(Instant.now().plus(Duration.ofMinutes(15)));
        });

        server.feed(prefix + "/feed.xml", TestFeeds.numbered("Eta", 1, NEWEST));
        FetchRecord recovered = crawl.refresh(feed);

        assertThat(recovered.status()).isEqualTo(CrawlStatusKind.OK);
        assertThat(crawl.state(feed).consecutiveErrors()).isZero();
        assertThat(health.of(feed).orElseThrow().lastError()).isNull();
    }

    @Test
    void retryAfterOn429And503IsHonoured() {
        server.respond(prefix + "/limited.xml", 429, Map.of("Retry-After", "7200"), "slow down");
        server.respond(prefix + "/down.xml", 503, Map.of("Retry-After", "3600"), "maintenance");

        FetchRecord limited = crawl.refresh(register("/limited.xml"));
        FetchRecord down = crawl.refresh(register("/down.xml"));

        assertThat(limited.errorKey()).isEqualTo("rate_limited");
        assertThat(limited.nextFetchIn()).isEqualTo(Duration.ofHours(2));
        assertThat(down.errorKey()).isEqualTo("server_error");
        assertThat(down.nextFetchIn()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void cacheControlExpiresAndTtlPutOffTheNextFetch() {
        // Entries a minute apart would call for the minimum interval; the hints say otherwise.
        String busy = TestFeeds.rss("Busy", List.of(new TestFeeds.Entry("b-2", "two", "x", NEWEST),
                new TestFeeds.Entry("b-1", "one", "x", NEWEST.minusSeconds(60))));
        server.feed(prefix + "/max-age.xml", busy, "application/rss+xml", Map.of("Cache-Control", "public, max-age=7200"));
        server.feed(prefix + "/ttl.xml", busy.replace("<description>test</description>",
                "<description>test</description><ttl>180</ttl>"));
        server.feed(prefix + "/plain.xml", busy);

        assertThat(crawl.refresh(register("/max-age.xml")).interval()).isEqualTo(Duration.ofHours(2));
        assertThat(crawl.refresh(register("/ttl.xml")).interval()).isEqualTo(Duration.ofHours(3));
        assertThat(crawl.refresh(register("/plain.xml")).interval()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void aPageThatIsNotAFeedIsARecordedError() {
        server.feed(prefix + "/page.html", TestFeeds.htmlPage(), "text/html", Map.of());
        long feed = register("/page.html");

        FetchRecord record = crawl.refresh(feed);

        assertThat(record.status()).isEqualTo(CrawlStatusKind.ERROR);
        assertThat(record.errorKey()).isEqualTo("not_a_feed");
        assertThat(health.of(feed).orElseThrow().lastError()).isNotBlank();
    }

    @Test
    void aHostileFeedYieldsARecordedErrorAndNoFileContents() {
        server.feed(prefix + "/xxe.xml", """
                <?xml version="1.0"?>
                <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
                <rss version="2.0"><channel><title>&xxe;</title><link>https://example.org/</link>
                <description>x</description><item><title>&xxe;</title><guid>1</guid></item></channel></rss>
                """);
        long feed = register("/xxe.xml");

        FetchRecord record = crawl.refresh(feed);

        assertThat(record.status()).isEqualTo(CrawlStatusKind.ERROR);
        assertThat(record.error()).doesNotContain("root:");
        assertThat(titles(feed)).isEmpty();
        assertThat(sources.get(feed).body().title()).isNull();
    }

    @Test
    void aFeedOnABlockedAddressIsRefusedWithoutARequest() {
        long feed = resolver.register("http://[::1]:" + server.port() + prefix + "/feed.xml").id();

        FetchRecord record = crawl.refresh(feed);

        assertThat(record.errorKey()).isEqualTo("blocked_address");
        assertThat(server.requests()).isEmpty();
    }

    private long register(String path) {
        return resolver.register(server.url(prefix + path).toString()).id();
    }

    private List<String> titles(long feed) {
        return items.ofSource(feed, null, null, 50).stream().map(item -> item.body().title()).toList();
    }
}
