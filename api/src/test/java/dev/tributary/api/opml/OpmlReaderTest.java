package dev.tributary.api.opml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpmlReaderTest {

    @Test
    void everyOutlineWithAnXmlUrlIsAFeedFiledInItsInnermostNamedFolder() {
        List<OpmlFeed> feeds = read("""
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0"><head><title>mine</title></head><body>
                  <outline text="News">
                    <outline text="Tech"><outline type="rss" text="A" xmlUrl="https://a.example/feed" htmlUrl="https://a.example/"/></outline>
                    <outline type="rss" title="B title" text="B" xmlUrl=" https://b.example/rss "/>
                  </outline>
                  <outline type="rss" text="C" xmlurl="https://c.example/atom"/>
                  <outline text="an empty category"/>
                </body></opml>
                """);

        assertThat(feeds).containsExactly(
                new OpmlFeed("https://a.example/feed", "A", "https://a.example/", "Tech"),
                new OpmlFeed("https://b.example/rss", "B title", null, "News"),
                new OpmlFeed("https://c.example/atom", "C", null, null));
    }

    @Test
    void opml1WithoutADeclarationIsRead() {
        assertThat(read("<opml version=\"1.0\"><body><outline xmlUrl=\"http://x.example/\"/></body></opml>"))
                .extracting(OpmlFeed::xmlUrl).containsExactly("http://x.example/");
    }

    @Test
    void billionLaughsIsRefusedForItsDtdBeforeAnyExpansion() {
        String lol = """
                <?xml version="1.0"?>
                <!DOCTYPE lolz [
                 <!ENTITY lol "lol">
                 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
                 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
                 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
                 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
                 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
                 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
                 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
                 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
                ]>
                <opml version="2.0"><body><outline text="&lol9;" xmlUrl="https://x.example/&lol9;"/></body></opml>
                """;

        assertThatThrownBy(() -> read(lol)).isInstanceOf(OpmlException.class).hasMessageContaining("DTD");
    }

    @Test
    void externalEntitiesAreRefusedWithoutReadingTheFile() {
        String xxe = """
                <?xml version="1.0"?>
                <!DOCTYPE opml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
                <opml version="2.0"><body><outline text="&xxe;" xmlUrl="https://x.example/"/></body></opml>
                """;

        assertThatThrownBy(() -> read(xxe)).isInstanceOf(OpmlException.class).hasMessageNotContaining("root:");
    }

    @Test
    void anUndeclaredEntityIsNotWellFormed() {
        assertThatThrownBy(() -> read("<opml><body><outline text=\"&passwd;\" xmlUrl=\"https://x.example/\"/></body></opml>"))
                .isInstanceOf(OpmlException.class).hasMessageContaining("well-formed");
    }

    @Test
    void xincludeIsNotFollowed() {
        List<OpmlFeed> feeds = read("""
                <opml version="2.0" xmlns:xi="http://www.w3.org/2001/XInclude"><body>
                <xi:include href="file:///etc/passwd" parse="text"/>
                <outline xmlUrl="https://x.example/"/></body></opml>
                """);

        assertThat(feeds).extracting(OpmlFeed::xmlUrl).containsExactly("https://x.example/");
    }

    @Test
    void otherDocumentsAreRefusedWithAReason() {
        assertThatThrownBy(() -> read("<rss version=\"2.0\"><channel/></rss>")).isInstanceOf(OpmlException.class)
                .hasMessageContaining("<rss>");
        assertThatThrownBy(() -> read("")).isInstanceOf(OpmlException.class);
        assertThatThrownBy(() -> read("<opml><body><outline")).isInstanceOf(OpmlException.class);
        assertThatThrownBy(() -> read("{\"opml\": true}")).isInstanceOf(OpmlException.class);
        assertThatThrownBy(() -> read("\u0000\u0001garbage")).isInstanceOf(OpmlException.class);
    }

    @Test
    void outlinesPastTheCapAreRefused() {
        String many = "<opml><body>" + "<outline text=\"c\"/>".repeat(OpmlReader.MAX_OUTLINES + 1) + "</body></opml>";
        String enough = "<opml><body>" + "<outline xmlUrl=\"https://x.example/\"/>".repeat(OpmlReader.MAX_OUTLINES) + "</body></opml>";

        assertThatThrownBy(() -> read(many)).isInstanceOf(OpmlException.class).hasMessageContaining("5000");
        assertThat(read(enough)).hasSize(OpmlReader.MAX_OUTLINES);
    }

    @Test
    void reasonableNestingIsReadAndAbsurdNestingRefusedCleanly() {
        String nested = "<opml><body>" + "<outline text=\"c\">".repeat(50) + "<outline xmlUrl=\"https://x.example/\"/>"
                + "</outline>".repeat(50) + "</body></opml>";
        String deep = "<opml><body>" + "<outline text=\"c\">".repeat(4000) + "</outline>".repeat(4000) + "</body></opml>";

        assertThat(read(nested)).hasSize(1);
        assertThatThrownBy(() -> read(deep)).isInstanceOf(OpmlException.class).hasMessageContaining("depth");
    }

    @Test
    void whatTheWriterWritesTheReaderReads() {
        List<OpmlFeed> feeds = List.of(new OpmlFeed("https://a.example/feed?x=1&y=2", "A <b>\"quoted\"</b> & \u0001", "https://a.example/"),
                new OpmlFeed("https://b.example/", null, null));

        byte[] written = OpmlWriter.write("title", java.time.Instant.parse("2026-11-21T10:00:00Z"), feeds);

        assertThat(OpmlReader.read(written)).containsExactly(
                new OpmlFeed("https://a.example/feed?x=1&y=2", "A <b>\"quoted\"</b> & ", "https://a.example/"),
                new OpmlFeed("https://b.example/", "https://b.example/", null));
        assertThat(new String(written, StandardCharsets.UTF_8)).contains("version=\"2.0\"").contains("<dateCreated>");
    }

    private static List<OpmlFeed> read(String xml) {
        return OpmlReader.read(xml.getBytes(StandardCharsets.UTF_8));
    }
}
