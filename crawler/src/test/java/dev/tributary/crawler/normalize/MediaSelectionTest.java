package dev.tributary.crawler.normalize;

import static dev.tributary.crawler.normalize.Entries.enclosure;
import static dev.tributary.crawler.normalize.Entries.thumbnail;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.parse.ParsedFeed;
import dev.tributary.pubsub.Media;
import dev.tributary.pubsub.MediaType;
import java.net.URI;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MediaSelectionTest {

    private static final URI BASE = URI.create("https://example.com/feed/");

    private static MediaSelection select(ParsedFeed.Media... media) {
        return MediaSelection.of(List.of(media), BASE);
    }

    private static ParsedFeed.Media content(String url, String type, String medium) {
        return new ParsedFeed.Media(url, type, medium, null, null, null, false);
    }

    @Test
    void kindIsByMimeTypeThenMediumThenExtension() {
        assertThat(select(enclosure("https://x.example/a", "audio/mpeg")).type(500, true)).isEqualTo(MediaType.AUDIO);
        assertThat(select(enclosure("https://x.example/a.mp3", "video/mp4")).type(500, true)).isEqualTo(MediaType.VIDEO);
        assertThat(select(content("https://x.example/a", null, "video")).type(500, true)).isEqualTo(MediaType.VIDEO);
        assertThat(select(content("https://x.example/a", "application/octet-stream", "audio")).type(500, true)).isEqualTo(MediaType.AUDIO);
        assertThat(select(enclosure("https://x.example/ep.M4A?token=1", null)).type(500, true)).isEqualTo(MediaType.AUDIO);
        assertThat(select(enclosure("https://x.example/clip.webm", "")).type(500, true)).isEqualTo(MediaType.VIDEO);
        assertThat(select(enclosure("https://youtube.example/v/1", "application/x-shockwave-flash")).type(500, true)).isEqualTo(MediaType.VIDEO);
    }

    @Test
    void videoBeatsAudioBeatsImage() {
        assertThat(select(enclosure("https://x.example/a.jpg", null), enclosure("https://x.example/a.mp3", null),
                enclosure("https://x.example/a.mp4", null)).type(0, true)).isEqualTo(MediaType.VIDEO);
        assertThat(select(enclosure("https://x.example/cover.jpg", "image/jpeg"), enclosure("https://x.example/a.mp3", null))
                .type(2000, true)).isEqualTo(MediaType.AUDIO);
    }

    @Test
    void anImageMakesAnImageEntryUnlessTheTextIsAnArticle() {
        MediaSelection photo = select(content("https://x.example/p.jpg", null, "image"));

        assertThat(photo.type(0, true)).isEqualTo(MediaType.IMAGE);
        assertThat(photo.type(MediaSelection.CAPTION_LENGTH - 1, true)).isEqualTo(MediaType.IMAGE);
        assertThat(photo.type(MediaSelection.CAPTION_LENGTH, true)).isEqualTo(MediaType.TEXT);
    }

    @Test
    void aThumbnailAloneMakesAnImageEntryOnlyWithoutText() {
        MediaSelection thumbnailOnly = select(thumbnail("https://x.example/t.jpg"));

        assertThat(thumbnailOnly.type(0, true)).isEqualTo(MediaType.IMAGE);
        assertThat(thumbnailOnly.type(0, false)).isEqualTo(MediaType.IMAGE);
        assertThat(thumbnailOnly.type(5, true)).isEqualTo(MediaType.TEXT);
        assertThat(select(thumbnail("https://x.example/t.jpg"), enclosure("https://x.example/doc.pdf", "application/pdf"))
                .type(0, true)).isEqualTo(MediaType.TEXT);
    }

    @Test
    void anEntryWithALinkAndNoRealTextIsALink() {
        MediaSelection none = select();

        assertThat(none.type(0, true)).isEqualTo(MediaType.LINK);
        assertThat(none.type(MediaSelection.LINK_TEXT_LENGTH - 1, true)).isEqualTo(MediaType.LINK);
        assertThat(none.type(MediaSelection.LINK_TEXT_LENGTH, true)).isEqualTo(MediaType.TEXT);
        assertThat(none.type(0, false)).isEqualTo(MediaType.TEXT);
        assertThat(select(enclosure("https://x.example/doc.pdf", "application/pdf")).type(0, true)).isEqualTo(MediaType.TEXT);
    }

    @Test
    void keepsAbsoluteHttpUrlsOnlyResolvingRelativeOnes() {
        MediaSelection selection = select(enclosure("/a.mp3", "audio/mpeg"), enclosure("b.mp3", "audio/mpeg"),
                enclosure("javascript:alert(1)", "audio/mpeg"), enclosure("ftp://x.example/c.mp3", "audio/mpeg"),
                enclosure("data:audio/mpeg;base64,AAAA", "audio/mpeg"), enclosure("  ", "audio/mpeg"));

        assertThat(selection.media()).extracting(Media::url)
                .containsExactly("https://example.com/a.mp3", "https://example.com/feed/b.mp3");
    }

    @Test
    void oneUrlListedTwiceIsOneMediaWithTheFieldsOfBoth() {
        MediaSelection selection = select(
                new ParsedFeed.Media("https://x.example/v.mp4", "video/mp4", null, null, null, 1000L, false),
                new ParsedFeed.Media("https://x.example/v.mp4", null, "video", 1280, 720, 2000L, false),
                thumbnail("https://x.example/v.mp4"));

        assertThat(selection.media()).containsExactly(new Media("https://x.example/v.mp4", "video/mp4", 1280, 720, 1000L));
        assertThat(selection.type(0, true)).isEqualTo(MediaType.VIDEO);
    }

    @Test
    void thumbnailsComeAfterWhatTheEntryCarriesAndAreTypedAsImages() {
        MediaSelection selection = select(thumbnail("https://x.example/t.jpg"), enclosure("https://x.example/a.mp3", null));

        assertThat(selection.media()).containsExactly(
                new Media("https://x.example/a.mp3", "audio/*", null, null, null),
                new Media("https://x.example/t.jpg", "image/*", null, null, null));
    }

    @Test
    void dropsNonsenseTypesSizesAndLengths() {
        MediaSelection selection = select(
                new ParsedFeed.Media("https://x.example/a", "not a mime type", null, -1, 0, -5L, false),
                new ParsedFeed.Media("https://x.example/b", "Audio/MPEG; charset=x", null, 2_000_000, 10, 0L, false));

        assertThat(selection.media()).containsExactly(
                new Media("https://x.example/a", null, null, null, null),
                new Media("https://x.example/b", "audio/mpeg", null, 10, null));
    }

    @Test
    void keepsAtMostTwentyMedia() {
        ParsedFeed.Media[] many = IntStream.range(0, 50)
                .mapToObj(i -> enclosure("https://x.example/" + i + ".jpg", "image/jpeg")).toArray(ParsedFeed.Media[]::new);

        assertThat(select(many).media()).hasSize(MediaSelection.MAX_MEDIA);
    }
}
