package dev.tributary.crawler.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.parse.FeedParser;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import dev.tributary.crawler.parse.Testdata;
import dev.tributary.pubsub.NewItem;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * The feed's own content keeps video players on the allow-list and https video and audio, and lazy
 * images become real, as fetched articles do (issue 47, item 6); nothing else that runs or frames
 * gets through, and summaries keep to the plain allow-list.
 */
class ContentEmbedsTest {

    private static final URI BASE = URI.create("https://shednotes.example/2026/10/post/");
    private static final Instant FETCHED = Instant.parse("2026-11-01T00:00:00Z");

    private final FullContent contents = new FullContent();

    private Element body(String raw) {
        FullContent.Kept kept = contents.sanitise(new Text(raw, true), BASE);
        return kept.content() == null ? new Element("body") : Jsoup.parseBodyFragment(kept.content().html()).body();
    }

    @Test
    void theWordPressFeedKeepsItsPlayersAndRealImages() throws Exception {
        List<NewItem> items = new EntryNormalizer(500).normalize(new FeedParser().parse(
                Testdata.bytes("quirks/rss-lazy-images-and-embeds.xml"), null, URI.create("https://shednotes.example/feed/")), FETCHED).items();

        Element lathe = Jsoup.parseBodyFragment(items.get(0).content().html()).body();
        assertThat(lathe.select("iframe").eachAttr("src")).containsExactly(
                "https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed", "https://player.vimeo.com/video/76979871");
        assertThat(lathe.select("iframe").eachAttr("sandbox")).containsOnly(SafeHtml.SANDBOX);
        assertThat(lathe.select("img").eachAttr("src")).containsExactly(
                "https://shednotes.example/wp-content/uploads/2026/10/headstock-open-1024x683.jpg",
                "https://shednotes.example/wp-content/uploads/2026/10/journal-1600.jpg",
                "https://shednotes.example/wp-content/uploads/2026/10/wipers@2x.webp",
                "https://shednotes.example/wp-content/uploads/2026/10/reassembled.jpg");
        assertThat(lathe.html()).doesNotContain("evil", "javascript", "alert", "camera", "data:", "srcset", "<noscript", "<picture");
        assertThat(items.get(0).summary()).doesNotContain("iframe");

        Element saw = Jsoup.parseBodyFragment(items.get(1).content().html()).body();
        assertThat(saw.select("video source").eachAttr("src")).containsExactly("https://shednotes.example/media/saw-minute.mp4");
        assertThat(saw.select("iframe").eachAttr("src")).containsExactly("https://www.youtube-nocookie.com/embed/oHg5SJYRHA0");
        // A post that is its players is a video post; so is the lathe's, a caption's worth of text
        // around two players and four pictures: what plays comes first in its media.
        assertThat(items.get(1).mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.VIDEO);
        assertThat(items.get(1).media()).extracting(m -> m.url() + " " + m.type()).containsExactly(
                "https://shednotes.example/media/saw-minute.mp4 video/mp4",
                "https://www.youtube-nocookie.com/embed/oHg5SJYRHA0 text/html");
        assertThat(items.get(0).mediaType()).isEqualTo(dev.tributary.pubsub.MediaType.VIDEO);
        assertThat(items.get(0).media()).extracting(m -> m.url()).startsWith(
                "https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed", "https://player.vimeo.com/video/76979871",
                "https://shednotes.example/wp-content/uploads/2026/10/headstock-open-1024x683.jpg");
    }

    @Test
    void aPlayerAloneIsContent() {
        assertThat(body("<iframe src=\"https://www.youtube.com/embed/abc_DEF-123\"></iframe>").select("iframe")).hasSize(1);
        assertThat(contents.sanitise(new Text("<iframe src=\"https://evil.example/embed/abc\"></iframe>", true), BASE).content()).isNull();
    }

    @Test
    void framesOffTheListOrNotHttpsGoWithTheirFallbackText() {
        Element body = body("""
                <p>Text.</p>
                <iframe src="https://evil.example/embed/dQw4w9WgXcQ">evil fallback</iframe>
                <iframe src="https://www.youtube.com.evil.example/embed/dQw4w9WgXcQ"></iframe>
                <iframe src="https://www.youtube.com:8443/embed/dQw4w9WgXcQ"></iframe>
                <iframe src="http://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>
                <iframe src="https://www.youtube.com/embed/../redirect?q=https://evil.example/"></iframe>
                <iframe src="https://www.youtube.com/embed/%2e%2e/redirect"></iframe>
                <iframe src="https://www.youtube.com/watch?v=dQw4w9WgXcQ"></iframe>
                <iframe src="javascript:alert(1)"></iframe>
                <iframe src="JaVaScRiPt:alert(1)//https://www.youtube.com/embed/x"></iframe>
                <iframe src="data:text/html,<script>alert(1)</script>"></iframe>
                <iframe srcdoc="<script>alert(1)</script>"></iframe>
                <iframe></iframe>
                <frameset><frame src="https://www.youtube.com/embed/x"></frameset>
                <object data="https://www.youtube.com/embed/x"></object><embed src="https://www.youtube.com/embed/x">
                """);

        assertThat(body.html()).isEqualTo("<p>Text.</p>");
    }

    @Test
    void aUserInAPlayersUrlIsDropped() {
        assertThat(body("<iframe src=\"https://evil@www.youtube.com/embed/dQw4w9WgXcQ\"></iframe>").select("iframe").eachAttr("src"))
                .containsExactly("https://www.youtube.com/embed/dQw4w9WgXcQ");
    }

    @Test
    void aKeptPlayerGetsTheSandboxAndNoneOfItsOwnPermissions() {
        Element frame = body("<iframe src=\"https://player.vimeo.com/video/123\" sandbox=\"allow-top-navigation allow-forms\" "
                + "allow=\"camera; microphone; geolocation\" onload=\"x()\" style=\"position:fixed\" name=\"n\" allowfullscreen "
                + "width=\"640\" height=\"360\" title=\"A film\"></iframe>").selectFirst("iframe");

        assertThat(frame).isNotNull();
        assertThat(frame.attr("sandbox")).isEqualTo(SafeHtml.SANDBOX);
        assertThat(frame.attr("allow")).isEqualTo(SafeHtml.ALLOW);
        assertThat(frame.attr("referrerpolicy")).isEqualTo("strict-origin-when-cross-origin");
        assertThat(frame.attributes().asList()).extracting(a -> a.getKey()).containsExactlyInAnyOrder(
                "src", "width", "height", "title", "allowfullscreen", "sandbox", "allow", "referrerpolicy", "loading");
    }

    @Test
    void videoAndAudioKeepOnlyHttpsSourcesAndNeverPlayByThemselves() {
        Element body = body("""
                <video autoplay loop muted onplay="x()" poster="javascript:alert(1)"><source src="http://a.example/v.mp4"><source src="/v.webm" type="video/webm"></video>
                <video src="data:video/mp4;base64,AAAA"></video>
                <video><source src="javascript:alert(1)"></video>
                <audio autoplay src="https://a.example/a.mp3"></audio>
                <audio src="http://a.example/a.mp3"></audio>
                <source src="https://a.example/stray.mp4">""");

        assertThat(body.select("video")).hasSize(1);
        Element video = body.selectFirst("video");
        assertThat(video.select("source").eachAttr("src")).containsExactly("https://shednotes.example/v.webm");
        assertThat(video.hasAttr("poster")).isFalse();
        assertThat(video.attr("preload")).isEqualTo("none");
        assertThat(body.select("audio").eachAttr("src")).containsExactly("https://a.example/a.mp3");
        assertThat(body.html()).doesNotContain("autoplay", "loop", "onplay", "javascript", "data:", "http:", "stray");
    }

    @Test
    void aSrcsetOfTenThousandCandidatesIsReadOnlyToItsBound() {
        StringBuilder srcset = new StringBuilder();
        for (int i = 1; i <= 10_000; i++) {
            srcset.append("/img/").append(i).append(".jpg ").append(i).append("w, ");
        }
        Element body = body("<img srcset=\"" + srcset + "\" alt=\"many\">");

        assertThat(LazyImages.candidates(srcset.toString())).hasSize(LazyImages.MAX_CANDIDATES);
        assertThat(body.select("img").eachAttr("src")).containsExactly("https://shednotes.example/img/64.jpg");
        assertThat(body.html()).doesNotContain("srcset").hasSizeLessThan(200);
    }

    @Test
    void srcsetCandidatesAreSplitAsBrowsersSplitThem() {
        assertThat(LazyImages.candidates("https://cdn.example/w_400,h_300/a.jpg 400w,https://cdn.example/w_800,h_600/a.jpg 800w"))
                .extracting(LazyImages.Candidate::url)
                .containsExactly("https://cdn.example/w_400,h_300/a.jpg", "https://cdn.example/w_800,h_600/a.jpg");
        assertThat(LazyImages.candidates("a.jpg, b.jpg 2x, c.jpg 1.5x")).extracting(LazyImages.Candidate::density)
                .containsExactly(1.0, 2.0, 1.5);
        assertThat(LazyImages.candidates("x".repeat(100_000) + " 1w")).isEmpty();
        assertThat(body("<img srcset=\"data:image/png;base64,AAAA 9000w, javascript:alert(1) 2x\" alt=\"gone\">").select("img")).isEmpty();
        assertThat(body("<img src=\"a.jpg\" srcset=\"a-small.jpg 300w, a-big.jpg 1200w\">").select("img").eachAttr("src"))
                .as("a real src is kept: the srcset only stands in for a missing or placeholder one")
                .containsExactly("https://shednotes.example/2026/10/post/a.jpg");
    }

    @Test
    void aSummaryNeverKeepsAFrame() {
        HtmlSummary summaries = new HtmlSummary(500);
        assertThat(summaries.sanitise(new Text("<p>Watch:</p><iframe src=\"https://www.youtube.com/embed/abc\"></iframe>"
                + "<video src=\"https://a.example/v.mp4\"></video>", true), BASE).html()).isEqualTo("<p>Watch:</p>");
    }
}
