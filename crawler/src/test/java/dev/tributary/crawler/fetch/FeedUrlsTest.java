package dev.tributary.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which urls may be fetched, their normal form, and how Location headers resolve. */
class FeedUrlsTest {

    @ParameterizedTest
    @CsvSource({"HTTP://Feeds.Example.COM/Feed.xml, http://feeds.example.com/Feed.xml", "https://example.com, https://example.com/",
            "http://example.com:80/a?b=c#frag, http://example.com/a?b=c", "https://example.com:443/, https://example.com/",
            "http://example.com:8080/x, http://example.com:8080/x", "http://münchen.example/feed, http://xn--mnchen-3ya.example/feed",
            "http://example.com/a%20b?q=%C3%A9, http://example.com/a%20b?q=%C3%A9"})
    void normalisesUrls(String in, String out) {
        assertThat(FeedUrls.check(URI.create(in)).uri()).isEqualTo(URI.create(out));
        assertThat(FeedUrls.check(URI.create(in)).literal()).isNull();
    }

    @ParameterizedTest
    @CsvSource({"2130706433, 127.0.0.1", "0x7f.0.0.1, 127.0.0.1", "017700000001, 127.0.0.1", "0177.0.0.1, 127.0.0.1", "127.1, 127.0.0.1",
            "0x7f000001, 127.0.0.1", "127.0.0.1., 127.0.0.1", "0, 0.0.0.0", "010.8.8.8, 8.8.8.8", "1.2.65535, 1.2.255.255", "8.8.8.8, 8.8.8.8"})
    void readsEverySpellingOfAnIpv4Address(String host, String address) {
        FeedUrls.Target target = FeedUrls.check(URI.create("http://" + host + ":8080/feed"));

        assertThat(target.literal()).isNotNull();
        assertThat(target.literal().getHostAddress()).isEqualTo(address);
        assertThat(target.uri()).isEqualTo(URI.create("http://" + address + ":8080/feed"));
    }

    @ParameterizedTest
    @CsvSource({"[::1], [::1]", "[::FFFF:127.0.0.1], 127.0.0.1", "[64:ff9b::127.0.0.1], [64:ff9b::7f00:1]", "[fe80::1%25eth0], [fe80::1]"})
    void readsIpv6Literals(String host, String normal) {
        FeedUrls.Target target = FeedUrls.check(URI.create("http://" + host + "/feed"));

        assertThat(target.literal()).isNotNull();
        assertThat(target.uri().getHost()).isEqualTo(normal);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://example.com/", "file:///etc/passwd", "jar:file:/a.jar!/b", "gopher://example.com/", "data:,x",
            "mailto:a@example.com", "feed.xml", "/feed.xml", "http:///feed", "http://user@example.com/", "http://user:pw@example.com/",
            "http://example.com@10.0.0.1/", "http://example.com:0/", "http://example.com:65536/", "http://1.2.3.4.5/", "http://256.0.0.1/",
            "http://0x100000000/", "http://4294967296/", "http://1.2.3.08/", "http://example.123/", "http://exa_mple.com/", "http://a..b/x"})
    void refusesUrlsThatAreNotPlainHttp(String url) {
        assertThatThrownBy(() -> FeedUrls.check(new URI(url)))
                .isInstanceOfSatisfying(FetchAbort.class, abort -> assertThat(abort.reason()).isEqualTo(FailureReason.INVALID_URL));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"/new|http://example.com/new", "new|http://example.com/a/new", "../up|http://example.com/up",
            "?page=2|http://example.com/a/feed?page=2", "//cdn.example.net/f|http://cdn.example.net/f", "https://Other.Example/x#y|https://other.example/x",
            "/with space/é|http://example.com/with%20space/%C3%A9", "/100%|http://example.com/100%25", "  /trimmed  |http://example.com/trimmed",
            "#top|http://example.com/a/feed?q=1"})
    void resolvesLocationAgainstTheCurrentUrl(String location, String expected) {
        URI base = URI.create("http://example.com/a/feed?q=1");

        assertThat(FeedUrls.resolveLocation(base, location).uri()).isEqualTo(URI.create(expected));
    }

    @Test
    void refusesARedirectOutOfHttp() {
        assertThatThrownBy(() -> FeedUrls.resolveLocation(URI.create("http://example.com/"), "file:///etc/passwd"))
                .isInstanceOfSatisfying(FetchAbort.class, abort -> assertThat(abort.reason()).isEqualTo(FailureReason.INVALID_URL));
        assertThatThrownBy(() -> FeedUrls.resolveLocation(URI.create("http://example.com/"), "http://[broken"))
                .isInstanceOfSatisfying(FetchAbort.class, abort -> assertThat(abort.reason()).isEqualTo(FailureReason.INVALID_URL));
    }
}
