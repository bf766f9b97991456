package dev.tributary.crawler.fetch;

import static dev.tributary.crawler.fetch.FeedFetcherTest.FEED;
import static dev.tributary.crawler.fetch.FeedFetcherTest.failure;
import static dev.tributary.crawler.fetch.FeedFetcherTest.fetch;
import static dev.tributary.crawler.fetch.FeedFetcherTest.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SSRF guard at work in real fetches. A counting server on 127.0.0.1 stands in for an
 * internal service: a refused fetch must not even open a connection to it.
 */
class FeedFetcherSsrfTest {

    static FeedFetcher productionLike;
    RawServer internal = RawServer.counting();

    @BeforeAll
    static void startFetcher() {
        productionLike = new FeedFetcher(TestLimits.productionLike().build(), Clock.systemUTC());
    }

    @AfterAll
    static void closeFetcher() {
        productionLike.close();
    }

    @AfterEach
    void stopServer() {
        internal.close();
    }

    private FetchFailure refused(FeedFetcher fetcher, URI url) {
        FetchFailure failure = failure(fetch(fetcher, FetchRequest.of(url)));
        assertThat(failure.reason()).as(failure.toString()).isEqualTo(FailureReason.BLOCKED_ADDRESS);
        return failure;
    }

    @Test
    void refusesLoopbackByDefaultWithoutConnecting() throws Exception {
        FetchFailure failure = refused(productionLike, internal.url("/admin"));

        assertThat(failure.detail()).contains("loopback");
        assertThat(internal.connectionsSoFar()).isZero();
    }

    @Test
    void allowsLoopbackWhenAllowPrivateListsIt() {
        try (TestHttpServer farm = TestHttpServer.start();
                FeedFetcher fetcher = new FeedFetcher(TestLimits.productionLike().allowPrivate("127.0.0.0/8").build(), Clock.systemUTC())) {
            farm.reply("/feed", 200, Map.of(), FEED);

            assertThat(result(fetch(fetcher, FetchRequest.of(farm.url("/feed")))).body()).isEqualTo(FEED);
        }
    }

    @Test
    void refusesAHostNameThatResolvesToLoopback() throws Exception {
        FetchFailure failure = refused(productionLike, URI.create("http://localhost:" + internal.port() + "/"));

        assertThat(failure.detail()).contains("resolves to").contains("loopback");
        assertThat(internal.connectionsSoFar()).isZero();
    }

    /** Every spelling points at the counting server's port, so a slip would show as a connection. */
    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.0.0.2", "[::1]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::127.0.0.1]",
            "[64:ff9b::127.0.0.1]", "[2002:7f00:1::]", "[fe80::1]", "[fc00::1]", "[fd12:3456::1]", "[ff02::1]", "[::]",
            "169.254.169.254", "10.0.0.1", "172.16.5.4", "192.168.1.1", "100.64.0.1", "0.0.0.0", "0", "224.0.0.1",
            "255.255.255.255", "2130706433", "0x7f.0.0.1", "017700000001", "0177.0.0.1", "127.1", "0x7f000001", "127.0.0.1.",
            "[64:ff9b::a00:1]", "[2002:a9fe:a9fe::1]"})
    void refusesInternalAddressesHoweverSpelled(String host) throws Exception {
        FetchFailure failure = refused(productionLike, URI.create("http://" + host + ":" + internal.port() + "/latest/meta-data/"));

        assertThat(failure.detail()).startsWith("refused").doesNotContain("resolves");
        assertThat(internal.connectionsSoFar()).isZero();
    }

    @Test
    void refusesARedirectToAnotherLoopbackAddress() throws Exception {
        // The feed server is let through as exactly 127.0.0.1/32; 127.0.0.2 is as internal as ever.
        try (RawServer otherInternal = RawServer.counting(InetAddress.getByName("127.0.0.2"));
                TestHttpServer feedServer = TestHttpServer.start();
                FeedFetcher fetcher = new FeedFetcher(TestLimits.testServerAllowed().build(), Clock.systemUTC())) {
            URI target = otherInternal.url("/admin");
            assertThat(target.getHost()).isEqualTo("127.0.0.2");
            feedServer.redirect("/feed", 302, target.toString());

            FetchFailure failure = refused(fetcher, feedServer.url("/feed"));

            assertThat(failure.finalUrl()).isEqualTo(target);
            assertThat(feedServer.seen()).hasSize(1);
            assertThat(otherInternal.connectionsSoFar()).isZero();
        }
    }

    @Test
    void refusesARedirectToAHostNameThatResolvesInternally() {
        // A public-looking name resolves to the test server; its redirect names an internal host.
        FakeDns dns = FakeDns.of(Map.of("feeds.example.test", "127.0.0.1", "intranet.example.test", "10.1.2.3"));
        try (TestHttpServer feedServer = TestHttpServer.start();
                FeedFetcher fetcher = new FeedFetcher(TestLimits.testServerAllowed().build(), Clock.systemUTC(),
                        (loops, guard) -> new GuardedResolverGroup(dns, guard), null)) {
            feedServer.reply("/feed", 200, Map.of(), FEED);
            feedServer.redirect("/moved", 301, "http://intranet.example.test:" + feedServer.port() + "/feed");

            assertThat(result(fetch(fetcher, FetchRequest.of(URI.create("http://feeds.example.test:" + feedServer.port() + "/feed")))).body())
                    .isEqualTo(FEED);
            FetchFailure failure = refused(fetcher, URI.create("http://feeds.example.test:" + feedServer.port() + "/moved"));

            assertThat(failure.detail()).contains("resolves to").contains("private");
            assertThat(dns.lookups("intranet.example.test")).isEqualTo(1);
        }
    }

    @Test
    void refusesAConnectionThatLandsOnLoopbackWhateverResolutionSaid() throws Exception {
        // The resolver here is deliberately unguarded: it stands for any resolution-time check a
        // rebinding name got past. The check on the connected socket must still refuse the
        // fetch, before a single byte of the request is written.
        FakeDns rebound = FakeDns.of(Map.of("rebind.example.test", "127.0.0.1"));
        try (FeedFetcher fetcher = new FeedFetcher(TestLimits.productionLike().build(), Clock.systemUTC(), (loops, guard) -> rebound, null)) {
            FetchFailure failure = refused(fetcher, URI.create("http://rebind.example.test:" + internal.port() + "/admin"));

            assertThat(failure.detail()).contains("connected to").contains("loopback");
            assertThat(internal.connectionsSoFar()).isEqualTo(1);
            assertThat(internal.awaitAllClosed(Duration.ofSeconds(5))).isTrue();
            assertThat(internal.bytesReceived()).isZero();
        }
    }

    @Test
    void judgesEveryLookupOfARebindingName() {
        FakeDns dns = FakeDns.rebinding("feeds.example.test", "127.0.0.1", "127.0.0.3");
        try (TestHttpServer feedServer = TestHttpServer.start();
                FeedFetcher fetcher = new FeedFetcher(TestLimits.testServerAllowed().build(), Clock.systemUTC(),
                        (loops, guard) -> new GuardedResolverGroup(dns, guard), null)) {
            feedServer.reply("/feed", 200, Map.of("Connection", "close"), FEED);
            URI url = URI.create("http://feeds.example.test:" + feedServer.port() + "/feed");

            assertThat(result(fetch(fetcher, FetchRequest.of(url))).body()).isEqualTo(FEED);
            refused(fetcher, url);
            assertThat(feedServer.seen()).hasSize(1);
        }
    }

    @Test
    void refusesAnInvalidAllowPrivateRangeAtConstruction() {
        assertThatThrownBy(() -> new FeedFetcher(TestLimits.productionLike().allowPrivate("10.0.0.0/8", "10.0.0.0/33").build(), Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allowPrivate")
                .hasMessageContaining("10.0.0.0/33");
        assertThatThrownBy(() -> new FeedFetcher(TestLimits.productionLike().allowPrivate("intranet.local/24").build(), Clock.systemUTC()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("intranet.local");
    }
}
