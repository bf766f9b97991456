package dev.tributary.crawler.normalize;

import static dev.tributary.crawler.normalize.Entries.entry;
import static dev.tributary.crawler.normalize.Entries.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.crawler.parse.FeedParser;
import dev.tributary.crawler.parse.ParsedFeed;
import dev.tributary.crawler.parse.Testdata;
import dev.tributary.pubsub.NewItem;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class EntryNormalizerTest {

    private static final Instant FETCHED = Instant.parse("2025-06-03T12:00:00Z");

    private final EntryNormalizer normalizer = new EntryNormalizer(500);

    private List<NewItem> items(Entries... entries) {
        return normalizer.normalize(feed(entries), FETCHED).items();
    }

    private NewItem item(Entries entry) {
        return items(entry).get(0);
    }

    @Test
    void guidIsTheEntryIdThenItsAbsoluteLinkThenAHash() {
        assertThat(item(entry().id("  tag:example.com,2025:1 ").link("/a")).guid()).isEqualTo("tag:example.com,2025:1");
        assertThat(item(entry().id("   ").link("posts/a.html")).guid()).isEqualTo("https://example.com/blog/posts/a.html");
        assertThat(item(entry().link("javascript:alert(1)").title("t")).guid()).startsWith("sha256:").hasSize(7 + 64);
    }

    @Test
    void theHashIsOfTitleTextDateAndMediaSoItIsStableAcrossFetches() {
        Entries entry = entry().title("Untitled").summary("<p>Same</p>").published("2025-06-01T00:00:00Z");

        String guid = item(entry).guid();

        assertThat(item(entry).guid()).isEqualTo(guid);
        assertThat(item(entry.summary("<p>Edited</p>")).guid()).isNotEqualTo(guid);
        assertThat(item(entry.published("2025-06-02T00:00:00Z")).guid()).isNotEqualTo(guid);
        assertThat(item(entry().media(Entries.enclosure("https://cdn.example/1.mp3", "audio/mpeg"))).guid())
                .isNotEqualTo(item(entry().media(Entries.enclosure("https://cdn.example/2.mp3", "audio/mpeg"))).guid());
    }

    @Test
    void anEditedEntryKeepsItsGuid() {
        Entries original = entry().id("post-1").link("/p/1").title("Draft title").summary("<p>First version</p>");
        Entries edited = original.title("Final title").summary("<p>Second version, longer</p>").updated("2025-06-02T00:00:00Z");
        Entries linkOnly = entry().link("/p/2").title("Before");

        assertThat(item(edited).guid()).isEqualTo(item(original).guid());
        assertThat(item(linkOnly.title("After").summary("<p>now with text</p>")).guid()).isEqualTo(item(linkOnly).guid());
    }

    @Test
    void idsLongerThanAGuidAreHashed() {
        String longId = "x".repeat(NewItem.MAX_GUID_LENGTH + 1);

        assertThat(item(entry().id(longId)).guid()).isEqualTo(Identity.hash(longId));
        assertThat(item(entry().id("y".repeat(NewItem.MAX_GUID_LENGTH))).guid()).hasSize(NewItem.MAX_GUID_LENGTH);
    }

    @Test
    void anEntryWithNothingToTellItByIsDropped() {
        assertThat(items(entry(), entry().link("mailto:someone@example.com"), entry().title("kept"))).hasSize(1);
    }

    @Test
    void duplicateGuidsCollapseIntoTheFirstInDocumentOrder() {
        List<NewItem> items = items(
                entry().id("a").title("newest copy"),
                entry().id("b").title("other"),
                entry().id("a").title("stale copy"),
                entry().link("https://example.com/x").title("by link"),
                entry().link("/x").title("same link, relative"));

        assertThat(items).extracting(NewItem::title).containsExactly("newest copy", "other", "by link");
    }

    @Test
    void linksAreMadeAbsoluteAndOnlyHttpSurvives() {
        assertThat(item(entry().id("1").link("../about")).url()).isEqualTo("https://example.com/about");
        assertThat(item(entry().id("1").link("//cdn.example.org/a b")).url()).isEqualTo("https://cdn.example.org/a%20b");
        assertThat(item(entry().id("1").link("p?q=ü")).url()).isEqualTo("https://example.com/blog/p?q=%C3%BC");
        assertThat(item(entry().id("1").link("x").base("https://other.example/base/")).url()).isEqualTo("https://other.example/base/x");
        for (String unsafe : List.of("javascript:alert(1)", "data:text/html,hi", "vbscript:x", "ftp://example.com/f", "file:///etc/passwd", "mailto:a@b")) {
            assertThat(item(entry().id("1").link(unsafe)).url()).as(unsafe).isNull();
        }
    }

    @Test
    void summaryLinksResolveAgainstTheEntryBase() {
        NewItem item = item(entry().id("1").base("https://blog.example.org/journal/")
                .summary("<p><a href=\"2025/x.html\">x</a><img src=\"/i.png\"></p>"));

        assertThat(item.summary()).isEqualTo("<p><a href=\"https://blog.example.org/journal/2025/x.html\" rel=\"nofollow noopener\">x</a>"
                + "<img src=\"https://blog.example.org/i.png\"></p>");
    }

    @Test
    void summaryFallsBackToContentWhenMissingOrEmpty() {
        assertThat(item(entry().id("1").content("<p>from content</p>")).summary()).isEqualTo("<p>from content</p>");
        assertThat(item(entry().id("1").summary("<p> </p>").content("<p>from content</p>")).summary()).isEqualTo("<p>from content</p>");
        assertThat(item(entry().id("1").summary("<p>summary</p>").content("<p>content</p>")).summary()).isEqualTo("<p>summary</p>");
        assertThat(item(entry().id("1")).summary()).isNull();
    }

    @Test
    void aPostThatIsAPlayerWithALineOfTextIsAVideoPost() {
        NewItem clip = item(entry().id("1").link("https://example.com/clip")
                .content("<p>Watch this</p><iframe src=\"https://www.youtube.com/embed/dQw4w9WgXcQ\" width=\"560\" height=\"315\"></iframe>"));

        assertThat(clip.mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.VIDEO);
        assertThat(clip.media()).singleElement().satisfies(media -> {
            assertThat(media.url()).isEqualTo("https://www.youtube.com/embed/dQw4w9WgXcQ");
            assertThat(media.type()).isEqualTo("text/html");
            assertThat(media.width()).isEqualTo(560);
        });
    }

    @Test
    void contentVideoAndAudioElementsMakeVideoAndAudioPostsWithTheirSourcesAsMedia() {
        NewItem video = item(entry().id("1").content("<video controls><source src=\"https://cdn.example/a.webm\" type=\"video/webm\"></video>"));
        NewItem audio = item(entry().id("2").content("<p>Episode 12</p><audio src=\"https://cdn.example/e12.mp3\"></audio>"));

        assertThat(video.mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.VIDEO);
        assertThat(video.media()).extracting(m -> m.url() + " " + m.type()).containsExactly("https://cdn.example/a.webm video/webm");
        assertThat(audio.mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.AUDIO);
        assertThat(audio.media()).extracting(m -> m.url() + " " + m.type()).containsExactly("https://cdn.example/e12.mp3 audio/*");
    }

    @Test
    void anArticleThatEmbedsAVideoStaysTextAndTheFeedsOwnMediaWin() {
        String article = "<p>" + "word ".repeat(MediaSelection.CAPTION_LENGTH / 5 + 1) + "</p>"
                + "<iframe src=\"https://player.vimeo.com/video/42\"></iframe>";
        NewItem withText = item(entry().id("1").content(article));
        NewItem withEnclosure = item(entry().id("2").content("<iframe src=\"https://player.vimeo.com/video/42\"></iframe>")
                .media(Entries.enclosure("https://cdn.example/cover.jpg", "image/jpeg")));
        NewItem foreignFrame = item(entry().id("3").content("<p>x</p><iframe src=\"https://evil.example/embed/1\"></iframe>"));

        assertThat(withText.mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.TEXT);
        assertThat(withEnclosure.mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.IMAGE);
        assertThat(withEnclosure.media()).extracting(m -> m.url()).containsExactly("https://cdn.example/cover.jpg");
        assertThat(foreignFrame.mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.TEXT);
        assertThat(foreignFrame.media()).isEmpty();
    }

    @Test
    void publishedIsPublishedElseUpdatedElseTheFetchAndNeverInTheFuture() {
        assertThat(item(entry().id("1").published("2025-01-01T00:00:00Z").updated("2025-02-01T00:00:00Z")).publishedAt())
                .isEqualTo(Instant.parse("2025-01-01T00:00:00Z"));
        assertThat(item(entry().id("1").updated("2025-02-01T00:00:00Z")).publishedAt()).isEqualTo(Instant.parse("2025-02-01T00:00:00Z"));
        assertThat(item(entry().id("1")).publishedAt()).isEqualTo(FETCHED);
        assertThat(item(entry().id("1").published("2030-01-01T00:00:00Z")).publishedAt()).isEqualTo(FETCHED);
    }

    @Test
    void aDateBefore1990OrAfterTheFetchIsNeverStored() {
        // A Unix time read as a year, and its like: the fetch time stands in (issue 45's date rule).
        assertThat(item(entry().id("1").published("-53662148-01-01T00:00:00Z")).publishedAt()).isEqualTo(FETCHED);
        assertThat(item(entry().id("1").published("1989-12-31T23:59:59Z")).publishedAt()).isEqualTo(FETCHED);
        assertThat(item(entry().id("1").published("0009-11-11T05:28:18Z")).publishedAt()).isEqualTo(FETCHED);
        assertThat(item(entry().id("1").published("1990-01-01T00:00:00Z")).publishedAt()).isEqualTo(Instant.parse("1990-01-01T00:00:00Z"));
        assertThat(item(entry().id("1").published(FETCHED.plusSeconds(1).toString())).publishedAt()).isEqualTo(FETCHED);
        assertThat(item(entry().id("1").published("1800-01-01T00:00:00Z").updated("2025-02-01T00:00:00Z")).publishedAt())
                .as("a believable updated date stands in for an unbelievable published one").isEqualTo(Instant.parse("2025-02-01T00:00:00Z"));
    }

    @Test
    void titlesArePlainText() {
        assertThat(item(entry().id("1").title("  <b>Bold</b>\n\tmove &amp; &eacute;tude&nbsp;!  ")).title()).isEqualTo("Bold move & étude !");
        assertThat(item(entry().id("1").title("a < b")).title()).isEqualTo("a < b");
        assertThat(item(entry().id("1").title("<script>alert(1)</script>Safe")).title()).isEqualTo("Safe");
        assertThat(item(entry().id("1").title(" \n ")).title()).isNull();
        assertThat(item(entry().id("1").title("w ".repeat(3000))).title()).hasSize(EntryNormalizer.MAX_TITLE_LENGTH).endsWith("…");
    }

    @Test
    void plainTextTitlesKeepTheirAngleBrackets() throws Exception {
        ParsedFeed feed = new FeedParser().parse(Testdata.bytes("atom-xmlbase.xml"), null, Testdata.FEED_URL);

        assertThat(normalizer.normalize(feed, FETCHED).items().get(1).title()).isEqualTo("An older <entry> moved elsewhere");
    }

    @Test
    void authorsArePlainCappedAndNamedRatherThanMailed() {
        assertThat(item(entry().id("1").author("editor@example.com (Jo Bloggs)")).author()).isEqualTo("Jo Bloggs");
        assertThat(item(entry().id("1").author("  Jo &amp; Sam ")).author()).isEqualTo("Jo & Sam");
        assertThat(item(entry().id("1").author("n".repeat(1000))).author()).hasSize(EntryNormalizer.MAX_AUTHOR_LENGTH);
    }

    @Test
    void tagsAreTrimmedDeduplicatedIgnoringCaseAndCapped() {
        List<String> many = new ArrayList<>(List.of(" News ", "news", "NEWS", "", "  ", "Sport", "t".repeat(300)));
        IntStream.range(0, 40).forEach(i -> many.add("tag" + i));

        List<String> tags = item(entry().id("1").categories(many.toArray(String[]::new))).tags();

        assertThat(tags).hasSize(EntryNormalizer.MAX_TAGS).startsWith("News", "Sport");
        assertThat(tags.get(2)).hasSize(EntryNormalizer.MAX_TAG_LENGTH);
        assertThat(tags).allMatch(tag -> tag.length() <= EntryNormalizer.MAX_TAG_LENGTH);
    }

    @Test
    void feedLevelFieldsAreResolvedAgainstTheFeedBase() throws Exception {
        ParsedFeed atom = new FeedParser().parse(Testdata.bytes("atom-xmlbase.xml"), null, Testdata.FEED_URL);
        ParsedFeed rss = new FeedParser().parse(Testdata.bytes("rss2-mediarss.xml"), null, Testdata.FEED_URL);

        FeedDocument atomDocument = normalizer.normalize(atom, FETCHED);
        FeedDocument rssDocument = normalizer.normalize(rss, FETCHED);

        assertThat(atomDocument.title()).isEqualTo("Notes & Queries");
        assertThat(atomDocument.siteUrl()).isEqualTo("https://blog.example.org/journal/");
        assertThat(atomDocument.self()).isEqualTo(URI.create("https://blog.example.org/journal/atom.xml"));
        assertThat(atomDocument.hub()).isEqualTo(URI.create("https://websub.example.net/"));
        assertThat(atomDocument.ttl()).isNull();
        assertThat(rssDocument.title()).isEqualTo("The Daily Planet – World");
        assertThat(rssDocument.ttl()).isEqualTo(Duration.ofMinutes(15));
        assertThat(rssDocument.hub()).isEqualTo(URI.create("https://pubsubhubbub.example/"));
    }

    @Test
    void atomEntriesInheritTheFeedAuthor() throws Exception {
        ParsedFeed atom = new FeedParser().parse(Testdata.bytes("atom-xmlbase.xml"), null, Testdata.FEED_URL);

        assertThat(normalizer.normalize(atom, FETCHED).items()).extracting(NewItem::author).containsExactly("Ada Byron", "Guest Writer");
    }

    @Test
    void aHugeFeedKeepsItsNewestItemsInDocumentOrder() {
        Entries[] entries = IntStream.range(0, EntryNormalizer.MAX_ITEMS + 10)
                .mapToObj(i -> entry().id("e" + i).published(Instant.parse("2020-01-01T00:00:00Z").plusSeconds(i * 60L).toString()))
                .toArray(Entries[]::new);

        List<NewItem> items = items(entries);

        assertThat(items).hasSize(EntryNormalizer.MAX_ITEMS);
        assertThat(items.get(0).guid()).isEqualTo("e10");
        assertThat(items.get(items.size() - 1).guid()).isEqualTo("e" + (EntryNormalizer.MAX_ITEMS + 9));
    }

    @Test
    void isSafeToShareBetweenThreads() throws Exception {
        ParsedFeed feed = new FeedParser().parse(Testdata.bytes("rss2-mediarss.xml"), null, Testdata.FEED_URL);
        FeedDocument expected = normalizer.normalize(feed, FETCHED);
        try (var executor = java.util.concurrent.Executors.newFixedThreadPool(4)) {
            var futures = new ArrayList<java.util.concurrent.Future<FeedDocument>>();
            for (int i = 0; i < 200; i++) {
                futures.add(executor.submit(() -> normalizer.normalize(feed, FETCHED)));
            }
            for (var future : futures) {
                assertThat(future.get()).isEqualTo(expected);
            }
        }
    }

    @Test
    void refusesANonPositiveSummaryLength() {
        assertThatThrownBy(() -> new EntryNormalizer(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
