package dev.tributary.crawler.article;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The extractor alone: what counts as HTML, charsets, the stored-size cut. */
class ArticleExtractorTest {

    private static final URI BASE = URI.create("https://blog.example/2026/11/post");

    private final ArticleExtractor extractor = new ArticleExtractor(200 * 1024);

    private static String page(int paragraphs, String word) {
        StringBuilder page = new StringBuilder("<html><head><title>Post</title></head><body><article>");
        for (int i = 0; i < paragraphs; i++) {
            page.append("<p>").append(i).append(' ').append((word + ", ").repeat(40)).append("end of paragraph.</p>");
        }
        return page.append("</article></body></html>").toString();
    }

    @Test
    void htmlIsKnownByItsTypeOrByItsFirstBytesWhenNoneIsGiven() {
        byte[] html = "  <!DOCTYPE html><html></html>".getBytes(StandardCharsets.UTF_8);
        assertThat(ArticleExtractor.isHtml("text/html; charset=utf-8", new byte[0])).isTrue();
        assertThat(ArticleExtractor.isHtml("application/xhtml+xml", new byte[0])).isTrue();
        assertThat(ArticleExtractor.isHtml(null, html)).isTrue();
        assertThat(ArticleExtractor.isHtml("application/octet-stream", html)).isTrue();
        assertThat(ArticleExtractor.isHtml("application/pdf", html)).isFalse();
        assertThat(ArticleExtractor.isHtml("image/png", html)).isFalse();
        assertThat(ArticleExtractor.isHtml(null, "%PDF-1.7".getBytes(StandardCharsets.US_ASCII))).isFalse();
    }

    @Test
    void aLongArticleIsCutAfterItsLastWholeBlockWithinTheStoredSize() throws Exception {
        ArticleExtractor.Extracted article = extractor.extract(page(2_000, "lengthy").getBytes(StandardCharsets.UTF_8), "text/html", BASE);

        assertThat(article.truncated()).isTrue();
        assertThat(article.html().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(200 * 1024);
        assertThat(article.html()).endsWith(ArticleExtractor.ELLIPSIS).contains("<p>0 lengthy");
    }

    @Test
    void multiByteTextCountsInBytes() throws Exception {
        ArticleExtractor.Extracted article = extractor.extract(page(2_000, "日本語の文章").getBytes(StandardCharsets.UTF_8),
                "text/html; charset=utf-8", BASE);

        assertThat(article.html().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(200 * 1024);
        assertThat(article.html()).contains("日本語の文章");
    }

    @Test
    void theResponseCharsetIsHonouredAndAnUnknownOneIgnored() throws Exception {
        byte[] latin = page(10, "café").getBytes(Charset.forName("ISO-8859-1"));
        assertThat(extractor.extract(latin, "text/html; charset=ISO-8859-1", BASE).html()).contains("café");
        assertThat(extractor.extract(page(10, "plain").getBytes(StandardCharsets.UTF_8), "text/html; charset=x-bogus-9", BASE).html())
                .contains("plain");
    }

    @Test
    void aShortArticleIsKeptWhole() throws Exception {
        ArticleExtractor.Extracted article = extractor.extract(page(5, "brief").getBytes(StandardCharsets.UTF_8), "text/html", BASE);
        assertThat(article.truncated()).isFalse();
        assertThat(article.title()).isEqualTo("Post");
    }

    @Test
    void aPageOfScriptsAndStylesIsNoArticle() {
        byte[] page = "<html><head><style>p{}</style></head><body><script>document.write('hi')</script><form><input></form></body></html>"
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> extractor.extract(page, "text/html", BASE))
                .isInstanceOfSatisfying(ArticleExtractor.NoArticleException.class,
                        e -> assertThat(e.refusal()).isEqualTo(ArticleExtractor.Refusal.NO_ARTICLE));
    }
}
