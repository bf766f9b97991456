package dev.tributary.crawler.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.parse.FeedParser;
import dev.tributary.crawler.parse.Testdata;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Quirks of real feeds a mature parser reads, parsed and normalised end to end, by kind. */
class RealWorldQuirksTest {

    private static final Instant FETCHED = Instant.parse("2026-01-01T00:00:00Z");

    private final FeedParser parser = new FeedParser();
    private final EntryNormalizer normalizer = new EntryNormalizer(500);

    private List<NewItem> items(String document) throws Exception {
        return normalizer.normalize(parser.parse(Testdata.utf8(document), "application/xml", Testdata.FEED_URL), FETCHED).items();
    }

    private NewItem rssItem(String item) throws Exception {
        return items(Testdata.rss("<item>" + item + "</item>")).get(0);
    }

    private static String atom03(String namespace, String entry) {
        return "<feed version=\"0.3\" xmlns=\"" + namespace + "\"><title>T</title>"
                + "<link rel=\"alternate\" type=\"text/html\" href=\"https://example.com/\"/>"
                + "<modified>2025-01-01T00:00:00Z</modified><entry>" + entry + "</entry></feed>";
    }

    private static String atom(String entry) {
        return "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>T</title><id>urn:f</id><updated>2025-01-01T00:00:00Z</updated>"
                + "<entry>" + entry + "</entry></feed>";
    }

    @Nested
    class Titles {

        @Test
        void doubleEscapedEntitiesAreDecoded() throws Exception {
            assertThat(rssItem("<title>AT&amp;amp;T &amp;#8220;quoted&amp;#8221;</title>").title()).isEqualTo("AT&T “quoted”");
        }

        @Test
        void cdataWrappersLeftInTitlesGo() throws Exception {
            assertThat(rssItem("<title>&lt;![CDATA[Fish &amp; Chips]]&gt;</title>").title()).isEqualTo("Fish & Chips");
            assertThat(rssItem("<title><![CDATA[Fish & Chips]]></title>").title()).isEqualTo("Fish & Chips");
        }

        @Test
        void plainTextTitlesWithHtmlTagsLoseTheTags() throws Exception {
            assertThat(items(atom("<id>urn:1</id><title type=\"text\">&lt;b&gt;Bold&lt;/b&gt; move</title>")).get(0).title())
                    .isEqualTo("Bold move");
            // Not HTML: kept as written.
            assertThat(items(atom("<id>urn:1</id><title type=\"text\">List&lt;T&gt; in Java &amp; x &lt; y</title>")).get(0).title())
                    .isEqualTo("List<T> in Java & x < y");
        }

        @Test
        void htmlTitlesAreDecodedOnce() throws Exception {
            assertThat(items(atom("<id>urn:1</id><title type=\"html\">Fish &amp;amp; Chips &lt;i&gt;now&lt;/i&gt;</title>")).get(0).title())
                    .isEqualTo("Fish & Chips now");
            assertThat(items(atom("<id>urn:1</id><title type=\"html\">5 &amp;lt; 6</title>")).get(0).title()).isEqualTo("5 < 6");
        }

        @Test
        void angleBracketsThatAreNotMarkupStayInRssTitles() throws Exception {
            assertThat(rssItem("<title>Why List&lt;String&gt; is not a List&lt;Object&gt;</title>").title())
                    .isEqualTo("Why List<String> is not a List<Object>");
            assertThat(rssItem("<title>Rust: Vec&lt;u8&gt; and Box&lt;T&gt;</title>").title()).isEqualTo("Rust: Vec<u8> and Box<T>");
            assertThat(rssItem("<title><![CDATA[HTML5 <video> & <audio> support]]></title>").title())
                    .isEqualTo("HTML5 <video> & <audio> support");
            // Markup feedparser recognises (a close tag of an HTML element) is still markup.
            assertThat(rssItem("<title>&lt;em&gt;Really&lt;/em&gt; bold</title>").title()).isEqualTo("Really bold");
        }

        @Test
        void angleBracketsInAtomTextTitlesStay() throws Exception {
            assertThat(items(atom("<id>urn:1</id><title type=\"text\">A &lt;b&gt; feed</title>")).get(0).title())
                    .isEqualTo("A <b> feed");
        }

        @Test
        void aCommentInATitleDoesNotCutIt() throws Exception {
            assertThat(rssItem("<title>Before &lt;!-- &lt;script&gt; --&gt; after</title>").title()).isEqualTo("Before after");
            assertThat(rssItem("<title>Before <!-- <script> --> after</title>").title()).isEqualTo("Before after");
        }
    }

    @Nested
    class OldDialects {

        @Test
        void atom03UnderEveryNamespaceSpelling() throws Exception {
            for (String namespace : List.of("http://purl.org/atom/ns#", "http://purl.org/atom/ns", "http://purl.org/atom/ns/")) {
                List<NewItem> items = items(atom03(namespace, "<title>E</title><id>urn:e</id><issued>2025-01-02T00:00:00Z</issued>"));

                assertThat(items).as(namespace).extracting(NewItem::title).containsExactly("E");
                assertThat(items.get(0).publishedAt()).isEqualTo(Instant.parse("2025-01-02T00:00:00Z"));
            }
        }

        @Test
        void atom03WithAPrefixedRootAndADefaultNamespace() throws Exception {
            List<NewItem> items = items("<atom:feed version=\"0.3\" xmlns:atom=\"http://purl.org/atom/ns#\" xmlns=\"http://purl.org/atom/ns#\">"
                    + "<title>T</title><entry><title>E</title><id>urn:e</id></entry></atom:feed>");

            assertThat(items).extracting(NewItem::title).containsExactly("E");
        }

        @Test
        void entriesWithOnlyAnAuthorOrOnlyCategoriesAreKept() throws Exception {
            List<NewItem> items = items(Testdata.rss("<item><author>jo@example.com (Jo)</author></item><item><category>News</category></item>"));

            assertThat(items).hasSize(2);
            assertThat(items.get(0).author()).isEqualTo("Jo");
            assertThat(items.get(1).tags()).containsExactly("News");
        }

        @Test
        void atom03EscapedAndBase64Content() throws Exception {
            List<NewItem> items = items(atom03("http://purl.org/atom/ns#",
                    "<title>E</title><id>urn:e</id><content type=\"text/html\" mode=\"escaped\">&lt;b&gt;Hi&lt;/b&gt;</content>")
                    .replace("</feed>", "<entry><title>F</title><id>urn:f</id><content type=\"text/html\" mode=\"base64\">"
                            + "PGI+QmFzZTwvYj4=</content></entry></feed>"));

            assertThat(items.get(0).summary()).isEqualTo("<b>Hi</b>");
            assertThat(items.get(1).summary()).isEqualTo("<b>Base</b>");
        }
    }

    @Nested
    class Sanitising {

        @Test
        void textAroundDroppedElementsStays() throws Exception {
            assertThat(rssItem("<guid>g</guid><description><![CDATA[<p>Before</p><iframe src=\"https://x.example/\"/><p>After</p>]]></description>")
                    .summary()).contains("Before").contains("After").doesNotContain("iframe");
            assertThat(rssItem("<guid>g</guid><description><![CDATA[Before <iframe>inside</iframe> after]]></description>")
                    .summary()).contains("Before").contains("after").doesNotContain("iframe");
            assertThat(rssItem("<guid>g</guid><description><![CDATA[Before <!-- <p> a > b --> after <script>x()</script>end]]></description>")
                    .summary()).isEqualTo("Before  after end");
        }
    }

    @Nested
    class MediaAndTags {

        @Test
        void atomContentWithAVideoSrcIsAVideo() throws Exception {
            NewItem item = items(atom("<id>urn:1</id><title>V</title><content type=\"video/mp4\" src=\"https://cdn.example/v.mp4\"/>")).get(0);

            assertThat(item.mediaType()).isEqualTo(MediaType.VIDEO);
            assertThat(item.media()).extracting(dev.tributary.pubsub.Media::url).containsExactly("https://cdn.example/v.mp4");
        }

        @Test
        void anAtomCategoryTagIsItsTerm() throws Exception {
            assertThat(items(atom("<id>urn:1</id><category term=\"tech\" label=\"Technology &amp; Science\"/>")).get(0).tags())
                    .containsExactly("tech");
        }
    }

    @Nested
    class DatesAndVocabularies {

        @Test
        void theFirstOfSeveralDatesWins() throws Exception {
            NewItem item = items(atom("<id>urn:1</id><updated>2025-03-01T00:00:00Z</updated><updated>2025-04-01T00:00:00Z</updated>")).get(0);

            assertThat(item.publishedAt()).isEqualTo(Instant.parse("2025-03-01T00:00:00Z"));
        }

        @Test
        void dctermsDatesAreDates() throws Exception {
            String ns = " xmlns:dcterms=\"http://purl.org/dc/terms/\"";
            for (String name : List.of("issued", "modified", "created")) {
                NewItem item = items(Testdata.rss("<item><guid>g</guid><dcterms:" + name + ns + ">2025-05-06T07:08:09Z</dcterms:" + name + "></item>"))
                        .get(0);
                assertThat(item.publishedAt()).as(name).isEqualTo(Instant.parse("2025-05-06T07:08:09Z"));
            }
        }

        @Test
        void dublinCoreTitleAndDescription() throws Exception {
            NewItem item = rssItem("<guid>g</guid><dc:title xmlns:dc=\"http://purl.org/dc/elements/1.1/\">DC title</dc:title>"
                    + "<dc:description xmlns:dc=\"http://purl.org/dc/elements/1.1/\">DC text</dc:description>");

            assertThat(item.title()).isEqualTo("DC title");
            assertThat(item.summary()).isEqualTo("DC text");
        }

        @Test
        void itunesAndMediaVocabularies() throws Exception {
            String itunes = " xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"";
            String media = " xmlns:media=\"http://search.yahoo.com/mrss/\"";
            NewItem item = rssItem("<guid>g</guid><title>Ep</title><itunes:author" + itunes + ">Pod Host</itunes:author>"
                    + "<itunes:summary" + itunes + ">Show notes</itunes:summary>"
                    + "<itunes:category" + itunes + " text=\"Comedy\"/><media:category" + media + ">Music</media:category>");

            assertThat(item.author()).isEqualTo("Pod Host");
            assertThat(item.summary()).isEqualTo("Show notes");
            assertThat(item.tags()).containsExactly("Comedy", "Music");
        }

        @Test
        void rssAuthorNameBesideAnAddress() throws Exception {
            assertThat(rssItem("<guid>g</guid><author>jo@example.com (Jo Bloggs)</author>").author()).isEqualTo("Jo Bloggs");
            assertThat(rssItem("<guid>g</guid><author>Jo Bloggs (jo@example.com)</author>").author()).isEqualTo("Jo Bloggs");
            assertThat(rssItem("<guid>g</guid><author>Jo Bloggs &lt;jo@example.com&gt;</author>").author()).isEqualTo("Jo Bloggs");
        }
    }

    @Nested
    class Sniffing {

        @Test
        void rssWithAnXhtmlDoctypeIsAFeed() throws Exception {
            List<NewItem> items = items("<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" "
                    + "\"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">"
                    + Testdata.rss("<item><title>I</title><guid>g</guid></item>").replaceFirst("<\\?xml[^>]*>\n", ""));

            assertThat(items).extracting(NewItem::title).containsExactly("I");
            assertThat(items("<!DOCTYPE html><rss version=\"2.0\"><channel><title>T</title><item><title>I</title><guid>g</guid></item>"
                    + "</channel></rss>")).extracting(NewItem::title).containsExactly("I");
        }

        @Test
        void itemsOutsideTheChannelAreRead() throws Exception {
            List<NewItem> items = items("<rss version=\"2.0\"><channel><title>T</title><link>https://example.com/</link></channel>"
                    + "<item><title>Outside</title><guid>g</guid></item></rss>");

            assertThat(items).extracting(NewItem::title).containsExactly("Outside");
        }

        @Test
        void anEntryWhoseOnlyContentIsAnXhtmlBody() throws Exception {
            NewItem item = rssItem("<guid>g</guid><body xmlns=\"http://www.w3.org/1999/xhtml\"><p>Body text</p></body>");

            assertThat(item.summary()).isEqualTo("<p>Body text</p>");
        }
    }

    @Nested
    class Bases {

        @Test
        void xmlBaseBelowTheEntry() throws Exception {
            NewItem item = items(atom("<id>urn:1</id><link href=\"post.html\" xml:base=\"https://other.example/dir/\"/>"
                    + "<content type=\"html\" xml:base=\"https://media.example/a/\">&lt;img src=\"pic.png\"&gt;</content>")).get(0);

            assertThat(item.url()).isEqualTo("https://other.example/dir/post.html");
            assertThat(item.summary()).contains("https://media.example/a/pic.png");
        }

        @Test
        void aHostileXmlBaseBelowTheEntryIsIgnored() throws Exception {
            NewItem item = items(atom("<id>urn:1</id><link href=\"post.html\" xml:base=\"javascript:alert(1)//\"/>"
                    + "<content type=\"html\" xml:base=\"file:///etc/\">&lt;a href=\"passwd\"&gt;x&lt;/a&gt;</content>")).get(0);

            assertThat(item.url()).isEqualTo("https://example.com/post.html");
            assertThat(item.summary()).contains("https://example.com/passwd").doesNotContain("file:", "javascript:");
        }
    }

    @Nested
    class TestdataFiles {

        private List<NewItem> file(String name) throws Exception {
            return normalizer.normalize(parser.parse(Testdata.bytes("quirks/" + name), "text/xml", Testdata.FEED_URL), FETCHED).items();
        }

        @Test
        void atom03WithoutTheHash() throws Exception {
            List<NewItem> items = file("atom03-purl-no-hash.xml");

            assertThat(items).hasSize(3);
            assertThat(items.get(0).title()).isEqualTo("Dive into &more");
            assertThat(items.get(0).summary()).isEqualTo("<p>Escaped <b>HTML</b></p>");
            assertThat(items.get(0).publishedAt()).isEqualTo(Instant.parse("2004-07-01T14:00:00Z"));
            assertThat(items.get(1).summary()).isEqualTo("<p>Base sixty-four</p>");
            assertThat(items.get(2).author()).isEqualTo("Only An Author");
            assertThat(items.get(2).guid()).startsWith(Identity.HASH_PREFIX);
        }

        @Test
        void rssTitlesWithAngleBrackets() throws Exception {
            FeedDocument feed = normalizer.normalize(parser.parse(Testdata.bytes("quirks/rss-titles-angle-brackets.xml"),
                    "text/xml", Testdata.FEED_URL), FETCHED);

            assertThat(feed.title()).isEqualTo("Generics <T> weekly");
            assertThat(feed.items()).extracting(NewItem::title).containsExactly("Why List<String> is not a List<Object>",
                    "Rust: Vec<u8> and Box<T>", "HTML5 <video> & <audio> support", "Is a < b && b > c?",
                    "Really bold & brave");
        }

        @Test
        void atomTextTitlesWithAngleBrackets() throws Exception {
            FeedDocument feed = normalizer.normalize(parser.parse(Testdata.bytes("quirks/atom-text-title-angle-brackets.xml"),
                    "text/xml", Testdata.FEED_URL), FETCHED);

            assertThat(feed.title()).isEqualTo("A <b> feed");
            assertThat(feed.items()).extracting(NewItem::title).containsExactly("Vec<u8> in type=text");
        }

        private FeedDocument document(String name) throws Exception {
            return normalizer.normalize(parser.parse(Testdata.bytes("quirks/" + name), "text/xml", Testdata.FEED_URL), FETCHED);
        }

        @Test
        void xmlBaseOnRssChannelAndItem() throws Exception {
            FeedDocument feed = document("rss-xml-base.xml");

            assertThat(feed.siteUrl()).isEqualTo("https://base.example/blog/");
            assertThat(feed.items().get(0).url()).isEqualTo("https://base.example/blog/2025/one.html");
            assertThat(feed.items().get(0).summary()).contains("src=\"https://base.example/blog/img/one.png\"");
            assertThat(feed.items().get(1).url()).isEqualTo("https://other.example/two/post.html");
            assertThat(feed.items().get(1).summary()).contains("href=\"https://other.example/two/more.html\"");
        }

        @Test
        void namespacesSpelledOtherwiseAndAChannelDcTitle() throws Exception {
            FeedDocument feed = document("rss-namespace-spellings.xml");

            assertThat(feed.title()).isEqualTo("Dublin Core Channel");
            NewItem pod = feed.items().get(0);
            assertThat(pod.author()).isEqualTo("Pod Person");
            assertThat(pod.summary()).isEqualTo("Spoken words.");
            assertThat(pod.tags()).containsExactly("Comedy");
            NewItem clip = feed.items().get(1);
            assertThat(clip.mediaType()).isEqualTo(MediaType.VIDEO);
            assertThat(clip.media()).extracting(dev.tributary.pubsub.Media::url).contains("https://media.example/clip.mp4");
            assertThat(clip.tags()).containsExactly("Music");
        }

        @Test
        void c1ControlsAreWindows1252Punctuation() throws Exception {
            FeedDocument feed = document("rss-c1-controls.xml");

            assertThat(feed.items()).extracting(NewItem::title).containsExactly("Don’t “quote” – me", "It’s €5");
            assertThat(feed.items().get(0).summary()).isEqualTo("<p>Smart ‘quotes’</p>");
        }

        @Test
        void aDescriptionThatIsAWholePageKeepsItsBody() throws Exception {
            FeedDocument feed = document("rss-doctype-in-description.xml");

            assertThat(feed.items().get(0).summary()).contains("<p>Body <b>text</b></p>").doesNotContain("DOCTYPE");
            assertThat(feed.items().get(1).summary()).isEqualTo("<p>Just a paragraph</p>");
            assertThat(feed.items().get(2).summary()).isEqualTo("<p>Subset</p>");
        }

        @Test
        void atomEmptyTypeAndTypePadDivs() throws Exception {
            FeedDocument feed = document("atom-type-quirks.xml");

            assertThat(feed.items()).extracting(NewItem::title).containsExactly("Empty type", "TypePad");
            assertThat(feed.items().get(1).summary()).contains("<p>TypePad <b>post</b></p>");
        }

        @Test
        void atom03Modes() throws Exception {
            FeedDocument feed = document("atom03-modes.xml");

            assertThat(feed.items()).hasSize(6);
            assertThat(feed.items().get(0).summary()).startsWith("<p>Wrapped base sixty-four, as tools wrote it.");
            assertThat(feed.items().get(1).summary()).isEqualTo("<p>Escaped in CDATA</p>");
            assertThat(feed.items().get(2).title()).isEqualTo("Encoded & titled");
            // Issue 47: each of these made the whole feed unreadable, or showed the markup as text.
            assertThat(feed.items().get(3).summary()).isEqualTo("<p>No padding</p>");
            assertThat(feed.items().get(4).summary()).isEqualTo("not base64!!");
            assertThat(feed.items().get(5).summary()).isEqualTo("<p>Escaped CDATA</p>");
        }

        @Test
        void rssUnderAnXhtmlDoctypeWithItemsBesideTheChannel() throws Exception {
            List<NewItem> items = file("rss-xhtml-doctype.xml");

            assertThat(items).extracting(NewItem::title).containsExactly("Only Dublin Core", "Episode 12");
            assertThat(items.get(0).summary()).isEqualTo("<p>Said in <i>dc</i>&nbsp;terms</p>");
            assertThat(items.get(0).publishedAt()).isEqualTo(Instant.parse("2025-02-03T04:05:06Z"));
            assertThat(items.get(1).author()).isEqualTo("Pod Host");
            assertThat(items.get(1).summary()).isEqualTo("What we talked about.");
            assertThat(items.get(1).tags()).containsExactly("Comedy", "Music");
        }
    }
}
