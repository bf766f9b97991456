package dev.tributary.crawler.parse;

import static dev.tributary.crawler.parse.Testdata.FEED_URL;
import static dev.tributary.crawler.parse.Testdata.bytes;
import static dev.tributary.crawler.parse.Testdata.rss;
import static dev.tributary.crawler.parse.Testdata.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.crawler.parse.FeedFormatException.Reason;
import dev.tributary.crawler.parse.ParsedFeed.Entry;
import dev.tributary.crawler.parse.ParsedFeed.Media;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FeedParserTest {

    private final FeedParser parser = new FeedParser();

    private ParsedFeed parse(String document) throws FeedFormatException {
        return parser.parse(utf8(document), "application/xml", FEED_URL);
    }

    @Test
    void readsRss2WithMediaRssAtomLinksTtlAndDublinCore() throws Exception {
        ParsedFeed feed = parser.parse(bytes("rss2-mediarss.xml"), "application/rss+xml; charset=utf-8", FEED_URL);

        assertThat(feed.format()).isEqualTo(ParsedFeed.Format.RSS);
        assertThat(feed.title()).isEqualTo(new Text("The Daily Planet \u2013 World", false));
        assertThat(feed.siteUrl()).isEqualTo("https://www.dailyplanet.example/world/");
        assertThat(feed.self()).isEqualTo("https://feeds.dailyplanet.example/world.rss");
        assertThat(feed.hub()).isEqualTo("https://pubsubhubbub.example/");
        assertThat(feed.ttl()).isEqualTo(Duration.ofMinutes(15));
        assertThat(feed.entries()).hasSize(3);

        Entry first = feed.entries().get(0);
        assertThat(first.id()).isEqualTo("dp-world-100234");
        assertThat(first.link()).isEqualTo("https://www.dailyplanet.example/world/2025/jun/03/flood-barrier?utm_source=rss&utm_medium=feed");
        assertThat(first.title().value()).isEqualTo("Flood barrier opens for the <em>first</em> time");
        assertThat(first.summary().value()).startsWith("<p>Engineers raised");
        assertThat(first.content().value()).isEqualTo("<p>Full article text that is not stored.</p>");
        assertThat(first.author()).isEqualTo("Lois Lane");
        assertThat(first.published()).isEqualTo(Instant.parse("2025-06-03T08:30:00Z"));
        assertThat(first.categories()).containsExactly("Environment", "Flooding", "environment");
        assertThat(first.media()).containsExactly(
                new Media("https://i.dailyplanet.example/img/2025/06/03/barrier-1200.jpg", null, "image", 1200, 720, 348211L, false),
                new Media("https://i.dailyplanet.example/img/2025/06/03/barrier-460.jpg", "image/jpeg", null, 460, 276, null, false));
        assertThat(feed.entries().get(1).media()).containsExactly(
                new Media("https://i.dailyplanet.example/img/2025/06/03/markets-140.jpg", null, "image", 140, 84, null, true));
        assertThat(feed.entries().get(2).media()).extracting(Media::url, Media::thumbnail).containsExactly(
                org.assertj.core.groups.Tuple.tuple("https://v.dailyplanet.example/2025/06/03/barrier-720.mp4", false),
                org.assertj.core.groups.Tuple.tuple("https://v.dailyplanet.example/2025/06/03/barrier-360.mp4", false),
                org.assertj.core.groups.Tuple.tuple("https://i.dailyplanet.example/img/2025/06/03/barrier-still.jpg", true));
    }

    @Test
    void readsAtom10WithXmlBaseAtFeedAndEntryLevel() throws Exception {
        ParsedFeed feed = parser.parse(bytes("atom-xmlbase.xml"), "application/atom+xml", FEED_URL);

        assertThat(feed.format()).isEqualTo(ParsedFeed.Format.ATOM);
        assertThat(feed.base()).isEqualTo(URI.create("https://blog.example.org/journal/"));
        assertThat(feed.title()).isEqualTo(new Text("Notes &amp; Queries", true));
        assertThat(feed.siteUrl()).isEqualTo("./");
        assertThat(feed.self()).isEqualTo("atom.xml");
        assertThat(feed.hub()).isEqualTo("https://websub.example.net/");
        assertThat(feed.author()).isEqualTo("Ada Byron");

        Entry first = feed.entries().get(0);
        assertThat(first.base()).isEqualTo(URI.create("https://blog.example.org/journal/"));
        assertThat(first.link()).isEqualTo("2025/05/relative-links.html");
        assertThat(first.published()).isEqualTo(Instant.parse("2025-05-30T16:00:00Z"));
        assertThat(first.updated()).isEqualTo(Instant.parse("2025-05-30T18:00:00Z"));
        assertThat(first.categories()).containsExactly("web", "urls");
        assertThat(first.summary().html()).isTrue();
        assertThat(first.summary().value()).contains("<a href=\"2025/05/other.html\">links</a>");
        assertThat(first.content().value()).contains("<p>The full text.</p>");
        assertThat(first.media()).containsExactly(new Media("files/relative-links.pdf", "application/pdf", null, null, null, 52344L, false));
        assertThat(first.author()).isNull();

        Entry second = feed.entries().get(1);
        assertThat(second.base()).isEqualTo(URI.create("https://archive.example.org/2024/"));
        assertThat(second.title()).isEqualTo(new Text("An older <entry> moved elsewhere", false));
        assertThat(second.author()).isEqualTo("Guest Writer");
        assertThat(second.summary()).isNull();
        assertThat(second.content().html()).isTrue();
    }

    @Test
    void readsRdfRss10WithDublinCore() throws Exception {
        ParsedFeed feed = parser.parse(bytes("rdf-rss10.xml"), "application/rdf+xml", FEED_URL);

        assertThat(feed.format()).isEqualTo(ParsedFeed.Format.RSS);
        assertThat(feed.title().value()).isEqualTo("Slashnews");
        Entry first = feed.entries().get(0);
        assertThat(first.id()).isEqualTo("https://slashnews.example/story/25/06/02/1");
        assertThat(first.author()).isEqualTo("timothy");
        assertThat(first.categories()).containsExactly("linux");
        assertThat(first.published()).isEqualTo(Instant.parse("2025-06-02T14:05:00Z"));
        assertThat(first.summary().value()).isEqualTo("The release brings <b>faster</b> file systems.");
    }

    @Test
    void readsJsonFeed11() throws Exception {
        ParsedFeed feed = parser.parse(bytes("jsonfeed-1.1.json"), "application/feed+json", URI.create("https://sam.example.com/feed.json"));

        assertThat(feed.format()).isEqualTo(ParsedFeed.Format.JSON_FEED);
        assertThat(feed.title()).isEqualTo(new Text("Microblog of Sam", false));
        assertThat(feed.siteUrl()).isEqualTo("https://sam.example.com/");
        assertThat(feed.self()).isEqualTo("https://sam.example.com/feed.json");
        assertThat(feed.hub()).isEqualTo("https://websub.example.com/");
        assertThat(feed.author()).isEqualTo("Sam Example");
        assertThat(feed.entries()).hasSize(3);

        Entry first = feed.entries().get(0);
        assertThat(first.content()).isEqualTo(new Text("<p>Sunrise over the bay.</p>", true));
        assertThat(first.media()).containsExactly(new Media("/photos/sunrise.jpg", null, "image", null, null, null, true));
        assertThat(first.published()).isEqualTo(Instant.parse("2025-06-03T12:12:00Z"));
        assertThat(first.categories()).containsExactly("photos", "Photos", "morning");

        Entry second = feed.entries().get(1);
        assertThat(second.id()).isEqualTo("20250602");
        assertThat(second.summary()).isEqualTo(new Text("Why I moved my blog to a static site & what I learned.", false));
        assertThat(second.content()).isEqualTo(new Text("The full text, which is not stored.", false));
        assertThat(second.updated()).isEqualTo(Instant.parse("2025-06-02T21:00:00Z"));

        Entry third = feed.entries().get(2);
        assertThat(third.published()).isNull();
        assertThat(third.media()).containsExactly(new Media("https://cdn.sam.example.com/ep12.m4a", "audio/x-m4a", null, null, null, 23456789L, false));
    }

    @Test
    void readsJsonFeed10AuthorAndABodyStartingWithABraceWhateverItsContentType() throws Exception {
        String json = """
                {"version": "https://jsonfeed.org/version/1", "title": "Old", "author": {"name": "Jo"},
                 "items": [{"id": "1", "content_text": "Hi", "url": "https://example.com/1"}]}""";

        ParsedFeed feed = parser.parse(utf8(json), "text/plain", FEED_URL);

        assertThat(feed.author()).isEqualTo("Jo");
        assertThat(feed.entries()).singleElement().extracting(Entry::link).isEqualTo("https://example.com/1");
    }

    @Test
    void readsPodcastEnclosures() throws Exception {
        ParsedFeed feed = parser.parse(bytes("podcast.xml"), "application/rss+xml", FEED_URL);

        assertThat(feed.entries().get(0).media()).containsExactly(
                new Media("https://media.gardentalk.example/ep42.mp3", "audio/mpeg", null, null, null, 34567890L, false));
        assertThat(feed.entries().get(1).id()).isNull();
        assertThat(feed.entries().get(1).link()).isNull();
        assertThat(feed.entries().get(1).media()).singleElement().extracting(Media::url, Media::length)
                .containsExactly("http://media.gardentalk.example/ep41.m4a", null);
    }

    @Test
    void readsYouTubeStyleAtomWithMediaGroupDescriptionAsSummary() throws Exception {
        ParsedFeed feed = parser.parse(bytes("youtube-atom.xml"), "text/xml; charset=UTF-8", FEED_URL);

        Entry video = feed.entries().get(0);
        assertThat(video.id()).isEqualTo("yt:video:dQw4w9WgXcQ");
        assertThat(video.link()).isEqualTo("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
        assertThat(video.summary().html()).isFalse();
        assertThat(video.summary().value()).startsWith("In this video we cut a through dovetail");
        assertThat(video.media()).containsExactly(
                new Media("https://www.youtube.com/v/dQw4w9WgXcQ?version=3", "application/x-shockwave-flash", null, 640, 390, null, false),
                new Media("https://i2.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg", null, "image", 480, 360, null, true));
        assertThat(feed.self()).isEqualTo("http://www.youtube.com/feeds/videos.xml?channel_id=UCabc123");
        assertThat(feed.siteUrl()).isEqualTo("https://www.youtube.com/channel/UCabc123");
    }

    @Test
    void readsRss091And092() throws Exception {
        ParsedFeed v091 = parse("""
                <rss version="0.91"><channel><title>Old</title><link>https://old.example/</link><description>d</description>
                <language>en</language><item><title>One</title><link>https://old.example/1</link><description>First</description></item>
                </channel></rss>""");
        ParsedFeed v092 = parse("""
                <rss version="0.92"><channel><title>Old</title><link>https://old.example/</link><description>d</description>
                <item><title>Two</title><description>Second</description>
                <enclosure url="https://old.example/2.mp3" length="1000" type="audio/mpeg"/></item></channel></rss>""");

        assertThat(v091.entries()).singleElement().extracting(Entry::link).isEqualTo("https://old.example/1");
        assertThat(v092.entries()).singleElement().extracting(entry -> entry.media().get(0).url()).isEqualTo("https://old.example/2.mp3");
    }

    @Test
    void readsAtom03() throws Exception {
        ParsedFeed feed = parse("""
                <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>Old Atom</title>
                <link rel="alternate" type="text/html" href="https://atom03.example/"/>
                <modified>2005-01-01T00:00:00Z</modified>
                <entry><title>E</title><link rel="alternate" type="text/html" href="https://atom03.example/e"/>
                <id>tag:atom03.example,2005:e</id><issued>2005-01-01T00:00:00Z</issued><modified>2005-01-02T00:00:00Z</modified>
                <summary type="text/html" mode="escaped">&lt;b&gt;bold&lt;/b&gt;</summary></entry></feed>""");

        assertThat(feed.format()).isEqualTo(ParsedFeed.Format.ATOM);
        assertThat(feed.siteUrl()).isEqualTo("https://atom03.example/");
        Entry entry = feed.entries().get(0);
        assertThat(entry.published()).isEqualTo(Instant.parse("2005-01-01T00:00:00Z"));
        assertThat(entry.updated()).isEqualTo(Instant.parse("2005-01-02T00:00:00Z"));
        assertThat(entry.summary()).isEqualTo(new Text("<b>bold</b>", true));
    }

    @Test
    void aPermalinkGuidIsTheLinkOnlyWhenItIsAWebUrl() throws Exception {
        ParsedFeed feed = parse(rss("""
                <item><title>a</title><guid>https://example.com/a</guid></item>
                <item><title>b</title><guid>12345</guid></item>"""));

        assertThat(feed.entries()).extracting(Entry::link).containsExactly("https://example.com/a", null);
    }

    @Test
    void readsDatesJavaTimeReadsAndLeavesTheOddOnesToRome() throws Exception {
        ParsedFeed feed = parse(rss("""
                <item><title>a</title><pubDate>Tue, 3 Jun 2025 08:30:00 +0200</pubDate></item>
                <item><title>b</title><pubDate>Tue, 03 Jun 2025 08:30:00 EST</pubDate></item>
                <item><title>c</title><dc:date xmlns:dc="http://purl.org/dc/elements/1.1/">2025-06-03</dc:date></item>
                <item><title>d</title><dc:date xmlns:dc="http://purl.org/dc/elements/1.1/">2025-06-03T08:30:00.250Z</dc:date></item>
                <item><title>e</title><pubDate>  Tue, 03 Jun 2025 08:30:00 GMT  </pubDate>
                  <dc:date xmlns:dc="http://purl.org/dc/elements/1.1/">2020-01-01T00:00:00Z</dc:date></item>"""));
        ParsedFeed atom = parse("""
                <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><updated>2025-06-03T00:00:00Z</updated>
                <entry><id>1</id><title>x</title><published>2025-06-03T08:30:00.123+02:00</published>
                <updated>2025-06-04T08:30:00Z</updated></entry>
                <entry><id>2</id><title>y</title><updated>June 4, 2025</updated></entry></feed>""");

        assertThat(feed.entries()).extracting(Entry::published).containsExactly(
                Instant.parse("2025-06-03T06:30:00Z"), Instant.parse("2025-06-03T13:30:00Z"), Instant.parse("2025-06-03T00:00:00Z"),
                Instant.parse("2025-06-03T08:30:00.250Z"), Instant.parse("2025-06-03T08:30:00Z"));
        assertThat(atom.entries().get(0).published()).isEqualTo(Instant.parse("2025-06-03T06:30:00.123Z"));
        assertThat(atom.entries().get(0).updated()).isEqualTo(Instant.parse("2025-06-04T08:30:00Z"));
        assertThat(atom.entries().get(1).updated()).isNull();
    }

    @Test
    void toleratesUnparseableDates() throws Exception {
        ParsedFeed feed = parse(rss("<item><title>a</title><pubDate>the day after tomorrow</pubDate></item>"));

        assertThat(feed.entries().get(0).published()).isNull();
    }

    @Test
    void refusesWhatIsNotAFeedAsNotAFeed() {
        assertReason("", "application/rss+xml", Reason.NOT_A_FEED);
        assertReason("   \n ", null, Reason.NOT_A_FEED);
        assertReason("<!DOCTYPE html><html><head><title>x</title></head><body><p>hi<br></body></html>", "text/html", Reason.NOT_A_FEED);
        assertReason("<html><head><link rel=alternate type=application/rss+xml href=/feed></head></html>", null, Reason.NOT_A_FEED);
        assertReason("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>", "image/svg+xml", Reason.NOT_A_FEED);
        assertReason("{\"name\": \"not a feed\"}", "application/json", Reason.NOT_A_FEED);
        assertReason("[1, 2, 3]", "application/json", Reason.NOT_A_FEED);
        assertReason("just some text", "text/plain", Reason.NOT_A_FEED);
    }

    @Test
    void refusesBrokenFeedsAsMalformed() {
        assertReason("<rss version=\"2.0\"><channel><title>T</title><item><title>x</item></channel></rss>", null, Reason.MALFORMED);
        assertReason("{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": [", "application/feed+json", Reason.MALFORMED);
    }

    @Test
    void aMessageSaysWhyAndStaysShort() {
        assertThatThrownBy(() -> parse("<rss><channel><title>" + "x".repeat(5000) + "</channel></rss>"))
                .isInstanceOf(FeedFormatException.class)
                .hasMessageStartingWith("Not well-formed XML (line 1")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThanOrEqualTo(300));
    }

    @Test
    void isSafeToShareBetweenThreads() throws Exception {
        byte[] body = bytes("rss2-mediarss.xml");
        ParsedFeed expected = parser.parse(body, null, FEED_URL);
        try (var executor = java.util.concurrent.Executors.newFixedThreadPool(4)) {
            var futures = new java.util.ArrayList<java.util.concurrent.Future<ParsedFeed>>();
            for (int i = 0; i < 200; i++) {
                futures.add(executor.submit(() -> parser.parse(body, null, FEED_URL)));
            }
            for (var future : futures) {
                assertThat(future.get()).isEqualTo(expected);
            }
        }
    }

    private void assertReason(String body, String contentType, Reason reason) {
        assertThatThrownBy(() -> parser.parse(utf8(body), contentType, FEED_URL))
                .as(body)
                .isInstanceOfSatisfying(FeedFormatException.class, e -> assertThat(e.reason()).isEqualTo(reason));
    }
}
