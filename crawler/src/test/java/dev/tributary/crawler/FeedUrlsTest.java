package dev.tributary.crawler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FeedUrlsTest {

    @ParameterizedTest
    @CsvSource({
            "example.org/feed,                       https://example.org/feed",
            "HTTP://Example.ORG:80/Feed?a=B#frag,    http://example.org/Feed?a=B",
            "https://example.org:443,                https://example.org/",
            "https://example.org:8443/x,             https://example.org:8443/x",
            "feed://example.org/rss,                 http://example.org/rss",
            "feed:https://example.org/rss,           https://example.org/rss",
            "'  http://example.org/a%20b  ',         http://example.org/a%20b"})
    void urlsAreKeptInOneCanonicalForm(String given, String canonical) {
        assertThat(FeedUrls.normalize(given).toString()).isEqualTo(canonical);
    }
}
