package dev.tributary.crawler.article;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.parse.Testdata;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * Full-article extraction keeps what Readability alone loses (issue 47, item 6): lazy-loaded
 * images with their real sources, allow-listed video players (sandboxed) and https video and
 * audio, and the byline; over real-shaped pages under {@code testdata/articles/}.
 */
class ArticleMediaTest {

    private final ArticleExtractor extractor = new ArticleExtractor(200 * 1024);

    private ArticleExtractor.Extracted extract(String file, String url) throws Exception {
        return extractor.extract(Testdata.bytes("articles/" + file), "text/html; charset=utf-8", URI.create(url));
    }

    private static Element body(ArticleExtractor.Extracted article) {
        return Jsoup.parseBodyFragment(article.html()).body();
    }

    @Test
    void lazyImagesBecomeRealOnesWithAbsoluteUrls() throws Exception {
        ArticleExtractor.Extracted article = extract("wordpress-lazy-images.html", "https://shednotes.example/2026/10/lathe-part-3/");

        Element body = body(article);
        assertThat(body.select("img").eachAttr("src")).containsExactly(
                "https://shednotes.example/wp-content/uploads/2026/10/headstock-open-1024x683.jpg",
                "https://cdn.shednotes.example/2026/10/parts-laid-out.jpg",
                "https://shednotes.example/wp-content/uploads/2026/10/journal-1600.jpg",
                "https://shednotes.example/wp-content/uploads/2026/10/wipers@2x.webp",
                "https://shednotes.example/wp-content/uploads/2026/10/reassembled.jpg",
                "https://cdn.shednotes.example/2026/10/finished-lathe.jpg");
        assertThat(body.select("img").eachAttr("alt")).contains("The headstock reassembled", "The lathe, finished for now");
        assertThat(article.html()).doesNotContain("data:", "srcset", "data-src", "lazy_placeholder", "<picture", "<noscript");
        assertThat(article.byline()).isEqualTo("Priya Natarajan");
        assertThat(article.title()).startsWith("Restoring a 1962 lathe, part 3");
    }

    @Test
    void videoPlayersOnTheListAreKeptSandboxedAndEverythingElseGoes() throws Exception {
        ArticleExtractor.Extracted article = extract("video-embeds.html", "https://woodwork.example/2026/11/filming/");

        Element body = body(article);
        assertThat(body.select("iframe").eachAttr("src")).containsExactly(
                "https://www.youtube.com/embed/dQw4w9WgXcQ?si=x1y2z3",
                "https://www.youtube-nocookie.com/embed/oHg5SJYRHA0",
                "https://player.vimeo.com/video/76979871?h=8272103f6e",
                "https://www.dailymotion.com/embed/video/x8abc12");
        for (Element frame : body.select("iframe")) {
            assertThat(frame.attr("sandbox")).isEqualTo("allow-scripts allow-same-origin allow-presentation allow-popups");
            assertThat(frame.attr("allow")).isEqualTo("encrypted-media; fullscreen; picture-in-picture");
            assertThat(frame.attributes().asList()).extracting(a -> a.getKey())
                    .doesNotContain("onload", "frameborder", "srcdoc").containsAnyOf("src");
            assertThat(frame.childNodeSize()).isZero();
        }
        assertThat(article.html()).doesNotContain("evil", "javascript:", "data:", "srcdoc", "allow-top-navigation", "camera;",
                "clipboard-write", "<object", "<embed", "<script", "onplay", "onload", "autoplay", "http://media.woodwork.example",
                "Fallback text");

        Element video = body.selectFirst("video");
        assertThat(video).isNotNull();
        assertThat(video.attr("poster")).isEqualTo("https://woodwork.example/media/dovetail-poster.jpg");
        assertThat(video.select("source").eachAttr("src")).containsExactly("https://woodwork.example/media/dovetail-raw.webm");
        assertThat(video.attr("preload")).isEqualTo("none");
        assertThat(video.hasAttr("controls")).isTrue();
        assertThat(body.select("video")).hasSize(1);
        assertThat(body.select("audio").eachAttr("src")).containsExactly("https://media.woodwork.example/saw.ogg");
        assertThat(article.byline()).isEqualTo("Tomás Reyes, Ada Okafor");
    }

    @Test
    void aBylineInTheTextIsFoundByReadability() throws Exception {
        ArticleExtractor.Extracted article = extract("byline-in-text.html", "https://ringroad.example/2026/11/a-year/");

        assertThat(article.byline()).isEqualTo("Marguerite Fontaine");
        assertThat(article.html()).contains("four thousand kilometres");
    }

    @Test
    void aRelAuthorLinkNamesTheAuthor() throws Exception {
        ArticleExtractor.Extracted article = extract("byline-rel-author.html", "https://bakery.example/notes/hydration");

        assertThat(article.byline()).isEqualTo("Li Wei");
    }

    @Test
    void aPageThatNamesNoAuthorHasNoByline() throws Exception {
        String page = "<html><head><title>Post</title><meta name=\"author\" content=\"https://example.com/me\"></head><body><article>"
                + ("<p>" + "Plain words about nothing in particular, ".repeat(30) + "</p>").repeat(5) + "</article></body></html>";

        assertThat(extractor.extract(page.getBytes(StandardCharsets.UTF_8), "text/html", URI.create("https://example.com/p")).byline())
                .isNull();
    }

    @Test
    void aHostileSrcsetIsReadOnlyToItsBound() throws Exception {
        StringBuilder srcset = new StringBuilder();
        for (int i = 1; i <= 10_000; i++) {
            srcset.append("/img/").append(i).append(".jpg ").append(i).append("w, ");
        }
        String page = "<html><head><title>Post</title></head><body><article>"
                + ("<p>" + "Plain words about nothing in particular, ".repeat(30) + "</p>").repeat(5)
                + "<img srcset=\"" + srcset + "\" alt=\"big\"><img srcset=\"data:image/png;base64,AAAA 2x, javascript:alert(1) 3x\" alt=\"x\">"
                + "<img src=\"data:image/png;base64,AAAA\" alt=\"d\"><img data-src=\"javascript:alert(1)\" alt=\"j\">"
                + "</article></body></html>";

        ArticleExtractor.Extracted article = extractor.extract(page.getBytes(StandardCharsets.UTF_8), "text/html",
                URI.create("https://example.com/p"));

        List<String> sources = body(article).select("img").eachAttr("src");
        assertThat(sources).hasSize(1);
        // Only the first candidates are weighed: the widest of those, not of all ten thousand.
        int width = Integer.parseInt(sources.getFirst().replaceAll("\\D", ""));
        assertThat(width).isLessThanOrEqualTo(64);
        assertThat(article.html()).doesNotContain("srcset", "data:", "javascript:").hasSizeLessThan(2_000 + 5 * 1_300);
    }
}
