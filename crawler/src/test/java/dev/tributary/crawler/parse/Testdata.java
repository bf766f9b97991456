package dev.tributary.crawler.parse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** Test fixtures: files under {@code src/test/resources/testdata/} and small helpers. */
public final class Testdata {

    public static final URI FEED_URL = URI.create("https://example.com/feed.xml");

    private Testdata() {
    }

    public static byte[] bytes(String name) {
        try (InputStream in = Testdata.class.getResourceAsStream("/testdata/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no testdata file " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** An RSS 2.0 document around {@code items}. */
    public static String rss(String items) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>T</title>"
                + "<link>https://example.com/</link><description>D</description>" + items + "</channel></rss>";
    }
}
