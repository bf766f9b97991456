package dev.tributary.crawler.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.normalize.HtmlSummary.Summary;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.net.URI;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class HtmlSummaryTest {

    private static final URI BASE = URI.create("https://example.com/posts/1");

    private final HtmlSummary summaries = new HtmlSummary(100);

    private String html(String html) {
        return summaries.sanitise(new Text(html, true), BASE).html();
    }

    @Test
    void aWholePageWithALargeHeadIsSummarisedFromItsBody() {
        // Issue 47: 40 KB of inline CSS used up the input read, and the summary came out empty.
        String page = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x.dtd\"><html><head><title>Page</title><style>"
                + "p { color: red; }\n".repeat(2500) + "</style></head><body class=\"post\"><p>The <b>post</b> itself</p></body></html>";

        assertThat(html(page)).isEqualTo("<p>The <b>post</b> itself</p>");
        assertThat(html("<!DOCTYPE html [ <!ENTITY x \"y\"> ]><p>Subset</p>")).isEqualTo("<p>Subset</p>");
    }

    @Test
    void keepsFormattingListsQuotesCodeAndHeadings() {
        String kept = "<h2>Title</h2><p><b>b</b> <strong>s</strong> <i>i</i> <em>e</em> <code>c</code></p>"
                + "<ul><li>one</li></ul><blockquote>q</blockquote><pre>  p  </pre>";

        assertThat(html(kept)).isEqualTo(kept);
    }

    @Test
    void removesScriptsStylesFramesFormsAndEventHandlers() {
        String dirty = "<p onclick=\"steal()\" style=\"color:red\" class=\"x\">Hi<script>alert(1)</script><style>p{}</style>"
                + "<iframe src=\"https://evil.example/\">frame text</iframe><object data=\"x.swf\"></object>"
                + "<form action=\"https://evil.example/\"><input name=\"q\"></form><svg onload=\"x()\"><a>vector</a></svg>"
                + "<!-- comment --><img src=\"https://example.com/a.png\" onerror=\"x()\"></p>";

        String clean = html(dirty);

        assertThat(clean).doesNotContain("script", "alert", "style", "iframe", "object", "form", "input", "onclick",
                "onerror", "onload", "svg", "comment", "class=");
        assertThat(clean).startsWith("<p>Hi").contains("<img src=\"https://example.com/a.png\">");
    }

    @Test
    void dropsJavascriptDataAndVbscriptUrls() {
        String clean = html("<a href=\"javascript:alert(1)\">j</a><a href=\"JaVaScRiPt:alert(1)\">J</a><a href=\"data:text/html,x\">d</a>"
                + "<a href=\"vbscript:x\">v</a><a href=\"  javascript:x\">s</a><img src=\"data:image/png;base64,AAAA\" alt=\"gone\">"
                + "<img src=\"javascript:x\"><blockquote cite=\"javascript:x\">q</blockquote>");

        assertThat(clean).doesNotContainIgnoringCase("javascript").doesNotContain("data:", "vbscript", "<img", "cite=");
        assertThat(clean).contains("<a rel=\"nofollow noopener\">j</a>");
    }

    @Test
    void linksGetNofollowNoopenerAndAbsoluteUrls() {
        assertThat(html("<a href=\"../about\" target=\"_blank\" rel=\"author\" title=\"t\">About</a>"))
                .isEqualTo("<a href=\"https://example.com/about\" title=\"t\" rel=\"nofollow noopener\">About</a>");
    }

    @Test
    void plainTextIsEscaped() {
        Summary summary = summaries.sanitise(new Text("<b>not bold</b> & \"co\"\n\nnext", false), BASE);

        assertThat(summary.html()).isEqualTo("&lt;b&gt;not bold&lt;/b&gt; &amp; \"co\" next");
    }

    @Test
    void nothingVisibleIsNoSummary() {
        assertThat(html("<p> </p><script>x</script><!-- c -->")).isNull();
        assertThat(html("<img src=\"https://example.com/only-a-picture.png\">")).isEqualTo("<img src=\"https://example.com/only-a-picture.png\">");
    }

    @Test
    void truncatesTheTextAtAWordWithAnEllipsisAndKeepsTagsBalanced() {
        String sentence = "<p>The <a href=\"https://example.com/q\">quick brown fox</a> jumps over the lazy dog &amp; the cat, "
                + "<em>again and again and again and again and again</em> until nightfall.</p><p>Second paragraph.</p>";

        String cut = html(sentence);

        assertThat(cut).endsWith("…</p>").doesNotContain("Second paragraph", "nightfall");
        assertThat(Jsoup.parseBodyFragment(cut).body().html().replace("\n", "")).isEqualToIgnoringWhitespace(cut);
        String visible = Jsoup.parseBodyFragment(cut).text();
        assertThat(visible).hasSizeLessThanOrEqualTo(101).contains("dog & the cat").doesNotEndWith(" …");
        assertThat(visible.substring(0, visible.length() - 1)).doesNotEndWith(" ").matches(".*\\w");
    }

    @Test
    void countsCollapsedWhitespaceButKeepsItInPre() {
        HtmlSummary tiny = new HtmlSummary(10);

        assertThat(tiny.sanitise(new Text("<p>a\n\n     b</p>", true), BASE).html()).isEqualTo("<p>a b</p>");
        assertThat(tiny.sanitise(new Text("<pre>a\n  b</pre>", true), BASE).html()).isEqualTo("<pre>a\n  b</pre>");
    }

    @Test
    void neverSplitsASurrogatePairOrAnEntity() {
        HtmlSummary tiny = new HtmlSummary(5);

        assertThat(tiny.sanitise(new Text("abcd\uD83D\uDE00efgh", false), BASE).html()).isEqualTo("abcd…");
        assertThat(tiny.sanitise(new Text("a&amp;b&lt;c&gt;defgh", true), BASE).html()).isEqualTo("a&amp;b&lt;c…");
    }

    @Test
    void reportsTheWholeTextLengthBeforeTheCut() {
        Summary summary = summaries.sanitise(new Text("<p>" + "word ".repeat(100) + "</p><p>more</p>", true), BASE);

        assertThat(summary.textLength()).isGreaterThan(500);
    }

    @Test
    void markupWithoutTextIsBoundedToo() {
        String html = summaries.sanitise(new Text("<b></b>".repeat(1_000) + "text", true), BASE).html();

        assertThat(html.length()).isLessThan(1000);
        assertThat(html).endsWith("…");
    }

    @Test
    @Timeout(10)
    void aTenMegabyteSummaryIsCutBeforeParsing() {
        Summary summary = summaries.sanitise(new Text("<p>" + "lorem ipsum ".repeat(900_000) + "</p>", true), BASE);

        assertThat(Jsoup.parseBodyFragment(summary.html()).text()).hasSizeLessThanOrEqualTo(101).endsWith("…");
    }

    @Test
    void aLongInputCutBeforeParsingStillEndsInAnEllipsis() {
        HtmlSummary large = new HtmlSummary(100_000);
        String input = "<p>" + "x".repeat(50) + "</p>" + "<b></b>".repeat(300_000);

        assertThat(large.sanitise(new Text(input, true), BASE).html()).endsWith("…");
    }
}
