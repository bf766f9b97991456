package dev.tributary.crawler.parse;

import static dev.tributary.crawler.parse.Testdata.FEED_URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.tributary.crawler.normalize.EntryNormalizer;
import dev.tributary.crawler.normalize.FeedDocument;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz-style: whatever the bytes, parsing (and normalising what parses) ends in a result or a
 * {@link FeedFormatException}; never another exception, never a hang (each test is time-bounded).
 */
class HostileInputTest {

    private static final List<String> FILES = List.of("rss2-mediarss.xml", "atom-xmlbase.xml", "rdf-rss10.xml",
            "jsonfeed-1.1.json", "podcast.xml", "youtube-atom.xml");
    private static final List<String> CONTENT_TYPES = Arrays.asList(null, "application/rss+xml", "text/xml",
            "text/xml; charset=UTF-16", "application/json", "application/feed+json", "text/html; charset=windows-1252",
            "image/png", "application/octet-stream; charset=nonsense", ";;;", "text/plain; charset=\"");
    private static final Instant FETCHED = Instant.parse("2025-06-03T12:00:00Z");

    private final FeedParser parser = new FeedParser();
    private final EntryNormalizer normalizer = new EntryNormalizer(500);
    private final Random random = new Random(20250603);

    /** Parses and normalises {@code body}; returns the document, or null for a refusal. Anything else fails the test. */
    private FeedDocument survive(byte[] body, String contentType) {
        try {
            return normalizer.normalize(parser.parse(body, contentType, FEED_URL), FETCHED);
        } catch (FeedFormatException refused) {
            assertThat(refused.getMessage()).isNotBlank();
            return null;
        } catch (Throwable unexpected) {
            fail("neither a feed nor a FeedFormatException for content type " + contentType + ": "
                    + new String(body, 0, Math.min(body.length, 300), StandardCharsets.ISO_8859_1), unexpected);
            return null;
        }
    }

    private String contentType() {
        return CONTENT_TYPES.get(random.nextInt(CONTENT_TYPES.size()));
    }

    @Test
    @Timeout(60)
    void randomBytes() {
        for (int i = 0; i < 300; i++) {
            byte[] body = new byte[random.nextInt(4096)];
            random.nextBytes(body);
            if (i % 3 == 0 && body.length > 0) {
                body[0] = (byte) (i % 2 == 0 ? '<' : '{');
            }
            survive(body, contentType());
        }
    }

    @Test
    @Timeout(60)
    void everyTestdataFileTruncatedEveryFewBytes() {
        for (String file : FILES) {
            byte[] whole = Testdata.bytes(file);
            for (int length = 0; length < whole.length; length += 7) {
                survive(Arrays.copyOf(whole, length), contentType());
            }
        }
    }

    @Test
    @Timeout(60)
    void testdataFilesWithRandomMutations() {
        byte[][] poison = {"<".getBytes(), "&".getBytes(), "]]>".getBytes(), "<![CDATA[".getBytes(), "\u0000".getBytes(),
                "&#0;".getBytes(), "\"".getBytes(), "<!DOCTYPE x>".getBytes(), "{".getBytes(), "\\u0000".getBytes(),
                {(byte) 0xFF, (byte) 0xFE}, {(byte) 0xC3}, "&nbsp".getBytes(), "xml:base=\"javascript:x\" ".getBytes()};
        for (String file : FILES) {
            byte[] original = Testdata.bytes(file);
            for (int i = 0; i < 150; i++) {
                byte[] body = original.clone();
                for (int flips = random.nextInt(4); flips >= 0; flips--) {
                    body = mutate(body, poison[random.nextInt(poison.length)]);
                }
                survive(body, contentType());
            }
        }
    }

    private byte[] mutate(byte[] body, byte[] insert) {
        int at = random.nextInt(body.length + 1);
        int removed = random.nextInt(3) == 0 ? Math.min(body.length - at, random.nextInt(8)) : 0;
        byte[] out = new byte[body.length + insert.length - removed];
        System.arraycopy(body, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(body, at + removed, out, at + insert.length, body.length - at - removed);
        return out;
    }

    @Test
    @Timeout(30)
    void deeplyNestedElementsEverywhere() {
        int depth = 100_000;
        String nested = "<a>".repeat(depth) + "x" + "</a>".repeat(depth);
        String htmlNested = "<div>".repeat(depth) + "x" + "</div>".repeat(depth);
        String jsonNested = "[".repeat(depth) + "]".repeat(depth);

        assertThat(survive(utf8(Testdata.rss("<item><title>t</title>" + nested + "</item>")), null)).isNull();
        assertThat(survive(utf8("<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>1</id><content type=\"xhtml\">"
                + nested + "</content></entry></feed>"), null)).isNull();
        assertThat(survive(utf8("{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": " + jsonNested + "}"), null)).isNull();
        // Nested HTML escaped inside a description is text to the XML parser and goes to jsoup, which caps its own depth.
        FeedDocument escapedHtml = survive(utf8(Testdata.rss("<item><title>t</title><description><![CDATA[" + htmlNested
                + "]]></description></item>")), null);
        assertThat(escapedHtml.items()).hasSize(1);
        FeedDocument deepTitle = survive(utf8(Testdata.rss("<item><title><![CDATA[" + htmlNested + "]]></title></item>")), null);
        assertThat(deepTitle.items()).hasSize(1);
    }

    @Test
    @Timeout(30)
    void aTenMegabyteTextNode() {
        String huge = "lorem ipsum ".repeat(900_000);

        FeedDocument document = survive(utf8(Testdata.rss("<item><title>" + huge + "</title><description>" + huge
                + "</description><guid>" + huge + "</guid><link>https://example.com/" + huge + "</link></item>")), null);

        assertThat(document.items()).singleElement().satisfies(item -> {
            assertThat(item.title()).hasSizeLessThanOrEqualTo(1000);
            assertThat(item.summary()).hasSizeLessThan(600);
            assertThat(item.guid()).startsWith("sha256:");
            assertThat(item.url()).isNull();
        });
        assertThat(survive(utf8("{\"version\": \"https://jsonfeed.org/version/1.1\", \"items\": [{\"id\": \"1\", \"content_html\": \""
                + huge + "\"}]}"), "application/feed+json")).isNotNull();
    }

    @Test
    @Timeout(30)
    void aHugeAttributeAndManyAttributes() {
        String value = "v".repeat(5_000_000);
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            many.append(" a").append(i).append("=\"x\"");
        }

        survive(utf8(Testdata.rss("<item><title>t</title><enclosure url=\"https://example.com/" + value + "\" type=\"audio/mpeg\"/></item>")), null);
        survive(utf8(Testdata.rss("<item" + many + "><title>t</title></item>")), null);
    }

    @Test
    @Timeout(30)
    void nulBytesAndInvalidUtf8() {
        byte[] feed = Testdata.bytes("rss2-mediarss.xml");
        byte[] withNuls = new byte[feed.length * 2];
        for (int i = 0; i < feed.length; i++) {
            withNuls[i * 2 + 1] = feed[i];
        }
        byte[] invalid = feed.clone();
        for (int i = 200; i < invalid.length; i += 37) {
            invalid[i] = (byte) (0x80 + random.nextInt(0x80));
        }

        survive(withNuls, null);
        survive(withNuls, "text/xml; charset=UTF-16LE");
        survive(invalid, "application/rss+xml; charset=utf-8");
        survive(new byte[10_000], null);
    }

    @Test
    @Timeout(30)
    void wrongContentTypes() {
        for (String file : FILES) {
            for (String contentType : CONTENT_TYPES) {
                assertThat(survive(Testdata.bytes(file), contentType)).as(file + " as " + contentType).isNotNull();
            }
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
