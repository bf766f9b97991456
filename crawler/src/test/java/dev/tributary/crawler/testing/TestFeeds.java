package dev.tributary.crawler.testing;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** Small RSS and HTML documents for tests, written out by hand so that tests read as the wire does. */
public final class TestFeeds {

    /** One RSS entry. */
    public record Entry(String guid, String title, String description, Instant published) {
    }

    private TestFeeds() {
    }

    public static String rss(String title, List<Entry> entries) {
        return rss(title, "", entries);
    }

    /** An RSS 2.0 feed; {@code channelExtra} is inserted into the channel verbatim (e.g. a ttl or a hub link). */
    public static String rss(String title, String channelExtra, List<Entry> entries) {
        StringBuilder xml = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
                <channel><title>%s</title><link>https://example.org/</link><description>test</description>
                """.formatted(escape(title)));
        xml.append(channelExtra);
        for (Entry entry : entries) {
            xml.append("<item><guid isPermaLink=\"false\">").append(escape(entry.guid())).append("</guid>")
                    .append("<title>").append(escape(entry.title())).append("</title>")
                    .append("<link>https://example.org/").append(escape(entry.guid())).append("</link>")
                    .append("<description>").append(escape(entry.description())).append("</description>")
                    .append("<pubDate>").append(DateTimeFormatter.RFC_1123_DATE_TIME.format(entry.published().atOffset(ZoneOffset.UTC)))
                    .append("</pubDate></item>\n");
        }
        return xml.append("</channel></rss>\n").toString();
    }

    /** A feed of {@code count} entries numbered from 1, an hour apart, the newest {@code newest}. */
    public static String numbered(String title, int count, Instant newest) {
        List<Entry> entries = new java.util.ArrayList<>();
        for (int i = count; i >= 1; i--) {
            entries.add(new Entry(title + "-" + i, title + " entry " + i, "<p>entry <b>" + i + "</b></p>",
                    newest.minusSeconds(3600L * (count - i))));
        }
        return rss(title, entries);
    }

    /** An HTML page naming feeds with {@code <link rel="alternate">}. */
    public static String htmlPage(String... feedHrefs) {
        StringBuilder html = new StringBuilder("<!doctype html><html><head><title>A site</title>");
        for (String href : feedHrefs) {
            html.append("<link rel=\"alternate\" type=\"application/rss+xml\" title=\"feed\" href=\"")
                    .append(href).append("\">");
        }
        return html.append("</head><body><p>Hello</p></body></html>").toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
