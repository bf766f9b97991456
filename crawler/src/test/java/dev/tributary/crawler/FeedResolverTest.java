package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.crawler.schedule.CrawlStates;
import dev.tributary.crawler.schedule.HostGate;
import dev.tributary.crawler.testing.FeedServerExtension;
import dev.tributary.crawler.testing.TestFeeds;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Stored;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;

@WithEmbeddedCrawler
class FeedResolverTest {

    private static final Instant NEWEST = Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);

    @Autowired FeedResolver resolver;
    @Autowired CrawlStates states;
    @Autowired Items items;
    @Autowired HostGate gate;
    @Autowired Crawl crawl;

    @Test
    void aSubscriptionTheGateHasNoTurnForIsAcceptedPendingAndCrawledWhenAllowed() throws Exception {
        server.feed(prefix + "/busy.xml", TestFeeds.numbered("Busy", 1, NEWEST));
        String address = "127.0.0.1:" + server.port();
        // Crawls of other names pointing at the same server hold its whole address budget.
        List<HostGate.Turn> crawls = new ArrayList<>();
        for (HostGate.Admission turn; (turn = gate.enter("alias-" + crawls.size() + ".example:80", () -> address,
                Duration.ZERO)).admitted(); ) {
            crawls.add(turn.turn());
        }
        assertThat(crawls).as("the per-address budget").hasSize(4);

        // Issue 47: never refused for the gate; taken unfetched, without a request sent.
        Stored<Source> pending = resolver.resolve(url("/busy.xml"));

        assertThat(pending.body().url()).isEqualTo(url("/busy.xml"));
        assertThat(server.requests(prefix + "/busy.xml")).isEmpty();
        assertThat(states.find(pending.id())).hasValueSatisfying(state -> {
            assertThat(state.fetchCount()).isZero();
            assertThat(state.lastFetchedAt()).isNull();
        });
        assertThat(items.ofSource(pending.id(), null, null, 10)).isEmpty();

        crawls.forEach(HostGate.Turn::close);
        crawl.refresh(pending.id());
        assertThat(items.ofSource(pending.id(), null, null, 10)).hasSize(1);
        assertThat(resolver.resolve(url("/busy.xml")).body().title()).isEqualTo("Busy");
    }

    @Test
    void aSiteAskingForTimeOnSubscribingIsFetchedFirstAfterItsRetryAfter() {
        server.respond(prefix + "/throttled.xml", 429, Map.of("Retry-After", "120"), "slow down");
        server.respond(prefix + "/unavailable.xml", 503, Map.of("Retry-After", "90"), "back soon");
        server.respond(prefix + "/no-hint.xml", 429, Map.of(), "slow down");
        Instant before = Instant.now();

        Stored<Source> throttled = resolver.resolve(url("/throttled.xml"));
        Stored<Source> unavailable = resolver.resolve(url("/unavailable.xml"));

        assertThat(states.find(throttled.id())).hasValueSatisfying(state -> {
            assertThat(state.fetchCount()).isZero();
            assertThat(state.nextFetchAt()).isAfterOrEqualTo(before.plusSeconds(119)).isBefore(Instant.now().plusSeconds(121));
        });
        assertThat(states.find(unavailable.id())).hasValueSatisfying(state ->
                assertThat(state.nextFetchAt()).isAfterOrEqualTo(before.plusSeconds(89)).isBefore(Instant.now().plusSeconds(91)));
        // Without a Retry-After a 429 is the site's refusal, said as such.
        assertThatThrownBy(() -> resolver.resolve(url("/no-hint.xml"))).isInstanceOfSatisfying(FeedRejectedException.class,
                e -> assertThat(e.reason()).isEqualTo(RejectionReason.RATE_LIMITED));
    }

    // One server per test: the tests of private addresses assert that it got no request at all.
    @RegisterExtension
    final FeedServerExtension server = new FeedServerExtension();
    private final String prefix = "/" + UUID.randomUUID();

    @Test
    void feedsAreRegisteredInBulkUnfetchedDueAtOnceAndAnInvalidUrlIsRefusedAlone() {
        String known = resolver.register(url("/known.xml")).body().url();
        Instant before = Instant.now().minusSeconds(1);

        Map<String, FeedResolver.Registration> registered = resolver.registerAll(List.of(
                new dev.tributary.pubsub.Sources.NewFeed(url("/known.xml"), "Known", null),
                new dev.tributary.pubsub.Sources.NewFeed(url("/new.xml") + "#fragment", "New", "https://site.example/"),
                new dev.tributary.pubsub.Sources.NewFeed("ftp://files.example/feed.xml", "Not http", null)));

        assertThat(registered).containsOnlyKeys(url("/known.xml"), url("/new.xml") + "#fragment", "ftp://files.example/feed.xml");
        assertThat(registered.get("ftp://files.example/feed.xml").refusal().reason()).isEqualTo(RejectionReason.INVALID_URL);
        Stored<Source> fresh = registered.get(url("/new.xml") + "#fragment").source();
        assertThat(fresh.body().url()).as("normalised").isEqualTo(url("/new.xml"));
        assertThat(fresh.body().title()).isEqualTo("New");
        assertThat(registered.get(url("/known.xml")).source().body().url()).isEqualTo(known);
        assertThat(states.find(fresh.id())).hasValueSatisfying(state -> {
            assertThat(state.fetchCount()).isZero();
            assertThat(state.nextFetchAt()).isAfter(before).isBefore(Instant.now().plusSeconds(1));
        });
        assertThat(server.requests(prefix + "/new.xml")).as("nothing fetched").isEmpty();
        assertThat(resolver.findAll(List.of(url("/new.xml"), url("/unknown.xml"), "not a url")))
                .containsOnlyKeys(url("/new.xml"));
    }

    @Test
    void aFeedIsAcceptedAndItsEntriesPublishedAtOnce() {
        server.feed(prefix + "/feed.xml", TestFeeds.numbered("Found", 4, NEWEST));

        Stored<Source> source = resolver.resolve(url("/feed.xml"));

        assertThat(source.body().url()).isEqualTo(url("/feed.xml"));
        assertThat(source.body().title()).isEqualTo("Found");
        assertThat(items.ofSource(source.id(), null, null, 10)).hasSize(4);
        assertThat(states.find(source.id())).hasValueSatisfying(state -> {
            assertThat(state.url().toString()).isEqualTo(url("/feed.xml"));
            assertThat(state.nextFetchAt()).isAfter(Instant.now().plus(Duration.ofMinutes(4)));
        });
        assertThat(server.requests(prefix + "/feed.xml")).hasSize(1);
    }

    @Test
    void relativeLinksResolveAgainstTheContentLocation() {
        String feed = """
                <rss version="2.0"><channel><title>Moved</title><link>/</link>
                <item><title>One</title><guid isPermaLink="false">one</guid><link>posts/one.html</link></item>
                </channel></rss>""";
        server.feed(prefix + "/located.xml", feed, "application/rss+xml", Map.of("Content-Location", prefix + "/archive/feed.xml"));
        server.feed(prefix + "/hostile.xml", feed.replace("one", "two"), "application/rss+xml",
                Map.of("Content-Location", "javascript:alert(1)//"));

        Stored<Source> located = resolver.resolve(url("/located.xml"));
        Stored<Source> hostile = resolver.resolve(url("/hostile.xml"));

        assertThat(items.ofSource(located.id(), null, null, 10).getFirst().body().url())
                .isEqualTo(url("/archive/posts/one.html"));
        assertThat(items.ofSource(hostile.id(), null, null, 10).getFirst().body().url())
                .as("a base that is not http(s) is ignored").isEqualTo(url("/posts/two.html"));
    }

    @Test
    void theFetchThatFoundAFeedCountsAsItsFirstCrawl() {
        server.feed(prefix + "/validated.xml", TestFeeds.numbered("Validated", 1, NEWEST), "application/rss+xml",
                Map.of("ETag", "\"v1\"", "Last-Modified", "Sat, 21 Nov 2026 04:00:00 GMT"));
        Instant before = Instant.now().minusSeconds(1);

        long id = resolver.resolve(url("/validated.xml")).id();

        assertThat(states.find(id)).hasValueSatisfying(state -> {
            assertThat(state.lastFetchedAt()).isAfter(before);
            assertThat(state.lastHttpStatus()).isEqualTo(200);
            assertThat(state.etag()).isEqualTo("\"v1\"");
            assertThat(state.lastModified()).isEqualTo("Sat, 21 Nov 2026 04:00:00 GMT");
        });
    }

    @Test
    void aKnownFeedIsAnsweredWithoutFetchingItAgainHoweverItIsSpelled() {
        server.feed(prefix + "/feed.xml", TestFeeds.numbered("Known", 1, NEWEST));
        long id = resolver.resolve(url("/feed.xml")).id();

        assertThat(resolver.resolve(url("/feed.xml")).id()).isEqualTo(id);
        assertThat(resolver.resolve("  HTTP://127.0.0.1:" + server.port() + prefix + "/feed.xml#top ").id()).isEqualTo(id);
        assertThat(resolver.resolve("feed://127.0.0.1:" + server.port() + prefix + "/feed.xml").id()).isEqualTo(id);
        assertThat(server.requests(prefix + "/feed.xml")).hasSize(1);
    }

    @Test
    void anHtmlPageIsSearchedForTheFeedsItNames() {
        server.feed(prefix + "/blog/index.html", TestFeeds.htmlPage("feed.xml"), "text/html; charset=utf-8", Map.of());
        server.feed(prefix + "/blog/feed.xml", TestFeeds.numbered("Blog", 2, NEWEST));

        Stored<Source> source = resolver.resolve(url("/blog/index.html"));

        assertThat(source.body().url()).isEqualTo(url("/blog/feed.xml"));
        assertThat(source.body().title()).isEqualTo("Blog");
        assertThat(items.ofSource(source.id(), null, null, 10)).hasSize(2);
    }

    @Test
    void theFirstReadableFeedAPageNamesWins() {
        server.feed(prefix + "/index.html", TestFeeds.htmlPage("missing.xml", "feed.xml"), "text/html", Map.of());
        server.feed(prefix + "/feed.xml", TestFeeds.numbered("Second", 1, NEWEST));

        assertThat(resolver.resolve(url("/index.html")).body().url()).isEqualTo(url("/feed.xml"));
    }

    @Test
    void aPageNamingNoFeedIsRefusedSayingWhy() {
        server.feed(prefix + "/index.html", TestFeeds.htmlPage(), "text/html", Map.of());

        assertThatThrownBy(() -> resolver.resolve(url("/index.html")))
                .isInstanceOfSatisfying(FeedRejectedException.class, e -> {
                    assertThat(e.reason()).isEqualTo(RejectionReason.NOT_A_FEED);
                    assertThat(e.getMessage()).contains("no feed found");
                });
    }

    @Test
    void aPageNamingOnlyUnreadableFeedsIsRefused() {
        server.feed(prefix + "/index.html", TestFeeds.htmlPage("broken.xml"), "text/html", Map.of());
        server.feed(prefix + "/broken.xml", "<rss><channel><title>oops", "application/rss+xml", Map.of());

        assertThatThrownBy(() -> resolver.resolve(url("/index.html")))
                .isInstanceOfSatisfying(FeedRejectedException.class, e -> assertThat(e.reason()).isEqualTo(RejectionReason.MALFORMED));
    }

    @Test
    void unreachableUrlsAreRefusedWithTheFetchFailure() throws Exception {
        assertThatThrownBy(() -> resolver.resolve(url("/missing.xml")))
                .isInstanceOfSatisfying(FeedRejectedException.class, e -> assertThat(e.reason()).isEqualTo(RejectionReason.NOT_FOUND));
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        assertThatThrownBy(() -> resolver.resolve("http://127.0.0.1:" + closedPort + "/feed.xml"))
                .isInstanceOfSatisfying(FeedRejectedException.class, e -> assertThat(e.reason()).isEqualTo(RejectionReason.CONNECT));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "ftp://example.org/feed", "file:///etc/passwd", "javascript:alert(1)",
            "http://", "http://user:secret@example.org/feed", "jar:file:/x.jar!/a", "http://exa mple.org/"})
    void invalidUrlsAreRefused(String url) {
        assertThatThrownBy(() -> resolver.resolve(url))
                .isInstanceOfSatisfying(FeedRejectedException.class, e -> assertThat(e.reason()).isEqualTo(RejectionReason.INVALID_URL));
    }

    @Test
    void anOversizeUrlIsRefused() {
        assertThatThrownBy(() -> resolver.resolve("http://example.org/" + "a".repeat(5000)))
                .isInstanceOfSatisfying(FeedRejectedException.class, e -> assertThat(e.reason()).isEqualTo(RejectionReason.INVALID_URL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://[::1]:%d/feed.xml", "http://169.254.169.254/latest/meta-data/",
            "http://10.0.0.1:%d/feed.xml", "http://[::ffff:10.1.2.3]/feed.xml", "http://0.0.0.0:%d/feed.xml"})
    void privateAddressesAreRefusedWithoutARequest(String pattern) {
        assertThatThrownBy(() -> resolver.resolve(pattern.formatted(server.port())))
                .isInstanceOfSatisfying(FeedRejectedException.class,
                        e -> assertThat(e.reason()).isEqualTo(RejectionReason.BLOCKED_ADDRESS));
        assertThat(server.requests()).isEmpty();
    }

    private String url(String path) {
        return server.url(prefix + path).toString();
    }
}
