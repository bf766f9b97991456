package dev.tributary.crawler.parse;

import static dev.tributary.crawler.parse.Testdata.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class HtmlFeedLinksTest {

    private static final URI PAGE = URI.create("https://www.example.org/blog/post.html");

    private final HtmlFeedLinks links = new HtmlFeedLinks();

    private List<URI> find(String html) {
        return links.find(utf8(html), "text/html; charset=utf-8", PAGE);
    }

    private static List<URI> uris(String... uris) {
        return java.util.Arrays.stream(uris).map(URI::create).toList();
    }

    @Test
    void resolvesRelativeHrefsAgainstThePage() {
        assertThat(find("""
                <html><head><link rel="alternate" type="application/rss+xml" title="RSS" href="feed.xml">
                <link rel="alternate" type="application/atom+xml" href="/atom.xml">
                <link rel="alternate" type="application/atom+xml" href="//cdn.example.org/atom.xml"></head></html>"""))
                .isEqualTo(uris("https://www.example.org/blog/feed.xml", "https://www.example.org/atom.xml", "https://cdn.example.org/atom.xml"));
    }

    @Test
    void resolvesAgainstBaseHref() {
        assertThat(find("""
                <html><head><link rel="alternate" type="application/rss+xml" href="rss"><base href="https://static.example.net/site/">
                </head></html>""")).isEqualTo(uris("https://static.example.net/site/rss"));
        assertThat(find("<base href=\"/other/\"><link rel=alternate type=application/rss+xml href=rss>"))
                .isEqualTo(uris("https://www.example.org/other/rss"));
    }

    @Test
    void putsAtomAndRssFirstThenOthersInDocumentOrderWithoutDuplicates() {
        assertThat(find("""
                <html><head>
                <link rel="alternate" type="application/feed+json" href="/feed.json">
                <link rel="alternate" type="application/rdf+xml" href="/index.rdf">
                <link rel="alternate" type="application/rss+xml" href="/rss">
                <link rel="alternate" type="text/xml" href="/old.xml">
                <link rel="alternate" type="application/json" href="/feed2.json">
                <link rel="alternate" type="application/xml" href="/app.xml">
                <link rel="Alternate Feed" type="Application/Atom+XML; charset=utf-8" href="/atom">
                <link rel="alternate" type="application/rss+xml" href="https://www.example.org/rss">
                <link rel="alternate" type="application/json" href="/rss">
                </head></html>"""))
                .isEqualTo(uris("https://www.example.org/rss", "https://www.example.org/atom", "https://www.example.org/feed.json",
                        "https://www.example.org/index.rdf", "https://www.example.org/old.xml", "https://www.example.org/feed2.json",
                        "https://www.example.org/app.xml"));
    }

    @Test
    void ignoresOtherLinksAndUnsafeUrls() {
        assertThat(find("""
                <html><head>
                <link rel="stylesheet" type="text/css" href="/style.css">
                <link rel="alternate stylesheet" type="text/css" href="/alt.css">
                <link rel="alternate" hreflang="fr" href="/fr/">
                <link rel="alternate" type="text/html" href="/print">
                <link rel="feed" type="application/rss+xml" href="/not-alternate">
                <link rel="alternate" type="application/rss+xml">
                <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
                <link rel="alternate" type="application/rss+xml" href="data:application/rss+xml,&lt;rss/&gt;">
                <link rel="alternate" type="application/rss+xml" href="file:///etc/passwd">
                <link rel="alternate" type="application/rss+xml" href="ftp://example.org/feed">
                <a rel="alternate" type="application/rss+xml" href="/anchor-not-link">x</a>
                </head></html>""")).isEmpty();
    }

    @Test
    void aHostileBaseCannotRedirectFeedsToOtherSchemes() {
        assertThat(find("<base href=\"javascript:alert(1)//\"><link rel=alternate type=application/rss+xml href=rss>"))
                .isEqualTo(uris("https://www.example.org/blog/rss"));
        assertThat(find("<base href=\"file:///etc/\"><link rel=alternate type=application/rss+xml href=passwd>")).isEmpty();
    }

    @Test
    void noneWhenThePageHasNoFeed() {
        assertThat(find("<!DOCTYPE html><html><head><title>No feeds</title></head><body><p>Hello</p></body></html>")).isEmpty();
    }

    @Test
    void emptyForWhatIsNotHtml() {
        byte[] rss = Testdata.bytes("rss2-mediarss.xml");
        byte[] page = utf8("<html><head><link rel=alternate type=application/rss+xml href=/rss></head></html>");

        assertThat(links.find(rss, "application/rss+xml", PAGE)).isEmpty();
        assertThat(links.find(rss, null, PAGE)).isEmpty();
        assertThat(links.find(page, "application/json", PAGE)).isEmpty();
        assertThat(links.find(page, "image/png", PAGE)).isEmpty();
        assertThat(links.find(new byte[0], "text/html", PAGE)).isEmpty();
        assertThat(links.find(page, null, PAGE)).isEqualTo(uris("https://www.example.org/rss"));
        assertThat(links.find(page, "application/octet-stream", PAGE)).isEqualTo(uris("https://www.example.org/rss"));
        assertThat(links.find(page, "application/xhtml+xml", PAGE)).isEqualTo(uris("https://www.example.org/rss"));
    }

    @Test
    void readsThePageInItsCharset() {
        byte[] latin1 = "<html><head><link rel=alternate type=application/rss+xml href=\"/caf\u00e9.xml\"></head></html>"
                .getBytes(Charset.forName("ISO-8859-1"));

        assertThat(links.find(latin1, "text/html; charset=ISO-8859-1", PAGE)).isEqualTo(uris("https://www.example.org/caf%C3%A9.xml"));
        assertThat(links.find(latin1, "text/html; charset=bogus", PAGE)).hasSize(1);
    }

    @Test
    @Timeout(30)
    void survivesHostileHtml() {
        String deep = "<div>".repeat(100_000);
        String link = "<link rel=alternate type=application/rss+xml href=/rss>";
        Random random = new Random(7);
        byte[] noise = new byte[100_000];
        random.nextBytes(noise);

        assertThat(find("<html><head>" + link + "</head><body>" + deep + "</body></html>")).hasSize(1);
        assertThat(find("<html><head>" + link + "<title>" + "x".repeat(10_000_000) + "</title></head></html>")).hasSize(1);
        assertThat(find("<html><head><link rel=alternate type=application/rss+xml href=\"" + "a".repeat(5_000_000) + "\"></head></html>"))
                .isEmpty();
        assertThat(find("<html><head>" + "<link rel=alternate type=application/rss+xml href=/f>".repeat(50_000) + "</head></html>"))
                .hasSize(1);
        assertThat(links.find(noise, "text/html", PAGE)).isEmpty();
        assertThat(find("<html><head><link rel=alternate type=application/rss+xml href=\"/a b|c\u0000\"></head></html>")).hasSize(1);
    }
}
