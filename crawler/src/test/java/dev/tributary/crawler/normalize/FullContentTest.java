package dev.tributary.crawler.normalize;

import static dev.tributary.crawler.normalize.Entries.entry;
import static dev.tributary.crawler.normalize.Entries.feed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.parse.FeedParser;
import dev.tributary.crawler.parse.ParsedFeed;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import dev.tributary.pubsub.ItemContent;
import dev.tributary.pubsub.NewItem;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

class FullContentTest {

    private static final URI BASE = URI.create("https://example.com/blog/2025/06/post/");
    private static final Instant FETCHED = Instant.parse("2025-06-03T12:00:00Z");

    private final FullContent contents = new FullContent();

    private String html(String raw) {
        return contents.sanitise(new Text(raw, true), BASE).content().html();
    }

    @Test
    void theFeedsContentIsKeptWholeBesideTheShortSummary() {
        String body = "<h2>Results</h2><p>" + "words ".repeat(400) + "</p><pre><code>int x = 1;</code></pre>";
        NewItem item = new EntryNormalizer(100).normalize(feed(entry().id("1").summary("<p>Short.</p>").content(body)), FETCHED)
                .items().getFirst();

        assertThat(item.summary()).isEqualTo("<p>Short.</p>");
        assertThat(item.content()).isNotNull();
        assertThat(item.content().truncated()).isFalse();
        assertThat(item.content().html()).startsWith("<h2>Results</h2><p>words words").endsWith("<pre><code>int x = 1;</code></pre>");
    }

    @Test
    void anEntryWithoutContentHasNone() {
        NewItem item = new EntryNormalizer(100).normalize(feed(entry().id("1").summary("<p>Only this.</p>")), FETCHED).items().getFirst();

        assertThat(item.content()).isNull();
        assertThat(contents.sanitise(new Text("<script>alert(1)</script><p> </p>", true), BASE).content()).isNull();
    }

    @Test
    void contentIsSanitisedAsSummariesAreWithRelativeUrlsMadeAbsolute() {
        String html = html("""
                <p onclick="steal()">Hi <a href="../other/" onmouseover="x()">there</a><script>alert(1)</script></p>
                <iframe src="https://evil.example/"></iframe><style>p{}</style>
                <a href="javascript:alert(1)">js</a><img src="chart.png" alt="chart"><form><input></form>""");

        assertThat(html).doesNotContain("onclick", "onmouseover", "script", "alert", "iframe", "style", "javascript", "form", "input")
                .contains("<a href=\"https://example.com/blog/2025/06/other/\" rel=\"nofollow noopener\">there</a>")
                .contains("<img src=\"https://example.com/blog/2025/06/post/chart.png\" alt=\"chart\">");
    }

    @Test
    void lazyImagesGetTheirRealSource() {
        Document doc = Jsoup.parseBodyFragment(html("""
                <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/img/a.jpg" alt="a">
                <img src="https://example.com/spinner.gif" data-lazy-src="https://cdn.example.com/b.jpg" alt="b">
                <img data-srcset="c-480.jpg 480w, c-1200.jpg 1200w, c-800.jpg 800w" alt="c">
                <img srcset="d.jpg 1x, d@2x.jpg 2x" alt="d">
                <img src="javascript:alert(1)" alt="gone">"""));

        assertThat(doc.select("img").eachAttr("src")).containsExactly(
                "https://example.com/img/a.jpg", "https://cdn.example.com/b.jpg",
                "https://example.com/blog/2025/06/post/c-1200.jpg", "https://example.com/blog/2025/06/post/d@2x.jpg");
        assertThat(doc.select("img").eachAttr("alt")).containsExactly("a", "b", "c", "d");
        assertThat(doc.body().html()).doesNotContain("srcset", "data-", "javascript");
    }

    @Test
    void aLongerContentIsCutAtAnElementBoundaryAndMarked() {
        FullContent small = new FullContent(1000);
        StringBuilder raw = new StringBuilder("<h1>Title</h1>");
        for (int i = 0; i < 100; i++) {
            raw.append("<p>Paragraph ").append(i).append(" with <b>bold</b> and é ü text.</p>");
        }
        raw.append("<div><p>Last paragraph, nested</p></div>");

        ItemContent content = small.sanitise(new Text(raw.toString(), true), BASE).content();

        assertThat(content.truncated()).isTrue();
        assertThat(content.html().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(1000).isGreaterThan(900);
        assertThat(content.html()).startsWith("<h1>Title</h1><p>Paragraph 0 with <b>bold</b>").endsWith("</p>")
                .doesNotContain("Last paragraph");
        // Balanced: parsed again, it serialises to itself.
        Document reparsed = Jsoup.parseBodyFragment(content.html());
        reparsed.outputSettings().prettyPrint(false);
        assertThat(reparsed.body().html()).isEqualTo(content.html());
        assertThat(new FullContent(100_000).sanitise(new Text(raw.toString(), true), BASE).content().truncated()).isFalse();
    }

    @Test
    void oneHugeElementIsEnteredAndCutInside() {
        FullContent small = new FullContent(300);
        String raw = "<blockquote><p>" + "word ".repeat(200) + "</p><p>after</p></blockquote><p>tail</p>";

        ItemContent content = small.sanitise(new Text(raw, true), BASE).content();

        assertThat(content.truncated()).isTrue();
        assertThat(content.html()).startsWith("<blockquote><p>word word").endsWith("word</p></blockquote>")
                .doesNotContain("after", "tail");
        assertThat(content.html().length()).isLessThanOrEqualTo(300);
    }

    @Test
    void aWordPressFeedsContentEncodedReachesTheItem() throws Exception {
        String rss = """
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
                <channel><title>Blog</title><link>https://example.com/</link>
                <item><title>Charts</title><link>https://example.com/charts/</link><guid>https://example.com/?p=1</guid>
                <description><![CDATA[A short excerpt [&#8230;]]]></description>
                <content:encoded><![CDATA[<h2>Charts</h2><p>See <a href="/data/">the data</a>.</p>
                <figure><img src="data:image/svg+xml,%3Csvg%3E" data-src="https://example.com/wp-content/chart.png" alt="chart"></figure>
                <script>track()</script>]]></content:encoded>
                </item></channel></rss>""";
        ParsedFeed feed = new FeedParser().parse(rss.getBytes(StandardCharsets.UTF_8), null, URI.create("https://example.com/feed/"));

        NewItem item = new EntryNormalizer(1000).normalize(feed, FETCHED).items().getFirst();

        assertThat(item.summary()).isEqualTo("A short excerpt […]");
        assertThat(item.content().html()).contains("<h2>Charts</h2>", "<a href=\"https://example.com/data/\"",
                "<img src=\"https://example.com/wp-content/chart.png\" alt=\"chart\">").doesNotContain("track", "script");
    }

    @Test
    void aPostLedByAPictureIsAnImagePostAndATrackingPixelIsNoPicture() {
        EntryNormalizer normalizer = new EntryNormalizer(1000);
        NewItem photo = normalizer.normalize(feed(entry().id("1").link("/p/1").summary("Sunset.")
                .content("<p><img src=\"/photos/sunset.jpg\" width=\"1200\" height=\"800\" alt=\"\"></p><p>Sunset over the bay.</p>"
                        + "<img src=\"https://feeds.example/~r/pixel\" width=\"1\" height=\"1\">")), FETCHED).items().getFirst();
        NewItem essay = normalizer.normalize(feed(entry().id("2").link("/p/2").summary("An essay.")
                .content("<p><img src=\"/photos/header.jpg\"></p><p>" + "A long essay. ".repeat(40) + "</p>")), FETCHED).items().getFirst();
        NewItem pixelOnly = normalizer.normalize(feed(entry().id("3").link("/p/3").summary("A short note with a link, nothing else.")
                .content("<p>A short note with a link, nothing else.</p><img src=\"https://feeds.example/~r/pixel\" width=\"1\" height=\"1\">")),
                FETCHED).items().getFirst();

        assertThat(photo.mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.IMAGE);
        assertThat(photo.media()).extracting(dev.tributary.pubsub.Media::url).containsExactly("https://example.com/photos/sunset.jpg");
        assertThat(photo.media().getFirst().width()).isEqualTo(1200);
        assertThat(essay.mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.TEXT);
        assertThat(pixelOnly.mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.TEXT);
        assertThat(pixelOnly.media()).isEmpty();
    }
}
