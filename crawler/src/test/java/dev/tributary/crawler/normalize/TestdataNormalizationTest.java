package dev.tributary.crawler.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.parse.FeedParser;
import dev.tributary.crawler.parse.Testdata;
import dev.tributary.pubsub.Media;
import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.NewItem;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The realistic feeds under {@code testdata/}, parsed and normalised end to end. */
class TestdataNormalizationTest {

    private static final Instant FETCHED = Instant.parse("2025-06-03T12:00:00Z");

    private final FeedParser parser = new FeedParser();
    private final EntryNormalizer normalizer = new EntryNormalizer(300);

    private List<NewItem> items(String file, URI feedUrl) throws Exception {
        return normalizer.normalize(parser.parse(Testdata.bytes(file), null, feedUrl), FETCHED).items();
    }

    @Test
    void newsRssWithMediaRss() throws Exception {
        List<NewItem> items = items("rss2-mediarss.xml", URI.create("https://feeds.dailyplanet.example/world.rss"));

        NewItem photoStory = items.get(0);
        assertThat(photoStory.guid()).isEqualTo("dp-world-100234");
        assertThat(photoStory.title()).isEqualTo("Flood barrier opens for the first time");
        assertThat(photoStory.summary()).isEqualTo("<p>Engineers raised the barrier at dawn as the river "
                + "<a href=\"https://feeds.dailyplanet.example/topics/rivers\" rel=\"nofollow noopener\">rose</a> to a record level.</p>");
        assertThat(photoStory.url()).isEqualTo("https://www.dailyplanet.example/world/2025/jun/03/flood-barrier?utm_source=rss&utm_medium=feed");
        assertThat(photoStory.author()).isEqualTo("Lois Lane");
        assertThat(photoStory.tags()).containsExactly("Environment", "Flooding");
        assertThat(photoStory.mediaType()).isEqualTo(MediaType.IMAGE);
        assertThat(photoStory.media()).containsExactly(
                new Media("https://i.dailyplanet.example/img/2025/06/03/barrier-1200.jpg", "image/*", 1200, 720, 348211L),
                new Media("https://i.dailyplanet.example/img/2025/06/03/barrier-460.jpg", "image/jpeg", 460, 276, null));
        assertThat(photoStory.publishedAt()).isEqualTo(Instant.parse("2025-06-03T08:30:00Z"));

        NewItem article = items.get(1);
        assertThat(article.mediaType()).isEqualTo(MediaType.TEXT);
        assertThat(article.summary()).hasSizeLessThanOrEqualTo(301).endsWith("…");
        assertThat(article.media()).extracting(Media::type).containsExactly("image/*");

        assertThat(items.get(2).mediaType()).isEqualTo(MediaType.VIDEO);
        assertThat(items.get(2).media()).hasSize(3);
    }

    @Test
    void atomWithXmlBase() throws Exception {
        List<NewItem> items = items("atom-xmlbase.xml", Testdata.FEED_URL);

        assertThat(items.get(0).url()).isEqualTo("https://blog.example.org/journal/2025/05/relative-links.html");
        assertThat(items.get(0).summary()).contains("href=\"https://blog.example.org/journal/2025/05/other.html\"",
                "src=\"https://blog.example.org/journal/images/diagram.png\"");
        assertThat(items.get(0).media()).containsExactly(
                new Media("https://blog.example.org/journal/files/relative-links.pdf", "application/pdf", null, null, 52344L));
        assertThat(items.get(0).tags()).containsExactly("web", "urls");
        assertThat(items.get(0).mediaType()).isEqualTo(MediaType.TEXT);
        assertThat(items.get(1).url()).isEqualTo("https://archive.example.org/2024/moved.html");
        assertThat(items.get(1).summary()).isEqualTo("<p>See <a href=\"https://archive.example.org/2024/appendix.html\" "
                + "rel=\"nofollow noopener\">the appendix</a>.</p>");
        assertThat(items.get(1).publishedAt()).isEqualTo(Instant.parse("2024-11-02T09:30:00Z"));
    }

    @Test
    void rdfRss10() throws Exception {
        List<NewItem> items = items("rdf-rss10.xml", Testdata.FEED_URL);

        assertThat(items).extracting(NewItem::guid).containsExactly(
                "https://slashnews.example/story/25/06/02/1", "https://slashnews.example/story/25/06/01/7");
        assertThat(items.get(0).summary()).isEqualTo("The release brings <b>faster</b> file systems.");
        assertThat(items.get(0).tags()).containsExactly("linux");
        assertThat(items.get(1).mediaType()).isEqualTo(MediaType.TEXT);
    }

    @Test
    void jsonFeed11() throws Exception {
        List<NewItem> items = items("jsonfeed-1.1.json", URI.create("https://sam.example.com/feed.json"));

        assertThat(items.get(0).mediaType()).isEqualTo(MediaType.TEXT);
        assertThat(items.get(0).media()).containsExactly(new Media("https://sam.example.com/photos/sunrise.jpg", "image/*", null, null, null));
        assertThat(items.get(0).tags()).containsExactly("photos", "morning");
        assertThat(items.get(0).author()).isEqualTo("Sam Example");
        assertThat(items.get(1).guid()).isEqualTo("20250602");
        assertThat(items.get(1).url()).isEqualTo("https://sam.example.com/2025/06/02/longer");
        assertThat(items.get(1).summary()).isEqualTo("Why I moved my blog to a static site &amp; what I learned.");
        assertThat(items.get(2).mediaType()).isEqualTo(MediaType.AUDIO);
        assertThat(items.get(2).publishedAt()).isEqualTo(FETCHED);
    }

    @Test
    void podcast() throws Exception {
        List<NewItem> items = items("podcast.xml", URI.create("https://gardentalk.example/feed.xml"));

        assertThat(items).extracting(NewItem::mediaType).containsExactly(MediaType.AUDIO, MediaType.AUDIO);
        assertThat(items.get(0).media()).containsExactly(new Media("https://media.gardentalk.example/ep42.mp3", "audio/mpeg", null, null, 34567890L));
        assertThat(items.get(0).summary()).isEqualTo("<p>All about compost.</p><ul><li>Browns and greens</li><li>Turning</li></ul>");
        // No guid and no link: the hash of title, text, date and enclosure names the episode.
        assertThat(items.get(1).guid()).startsWith(Identity.HASH_PREFIX);
        assertThat(items.get(1).media()).containsExactly(new Media("http://media.gardentalk.example/ep41.m4a", "audio/*", null, null, null));
    }

    @Test
    void youTubeStyleAtom() throws Exception {
        NewItem video = items("youtube-atom.xml", Testdata.FEED_URL).get(0);

        assertThat(video.mediaType()).isEqualTo(MediaType.VIDEO);
        assertThat(video.guid()).isEqualTo("yt:video:dQw4w9WgXcQ");
        assertThat(video.summary()).startsWith("In this video we cut a through dovetail with a saw and chisels. Tools used:");
        assertThat(video.author()).isEqualTo("Woodwork Weekly");
        assertThat(video.media()).containsExactly(
                new Media("https://www.youtube.com/v/dQw4w9WgXcQ?version=3", "application/x-shockwave-flash", 640, 390, null),
                new Media("https://i2.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg", "image/*", 480, 360, null));
        assertThat(video.publishedAt()).isEqualTo(Instant.parse("2025-05-31T15:00:07Z"));
    }
}
