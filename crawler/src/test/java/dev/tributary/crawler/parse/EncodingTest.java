package dev.tributary.crawler.parse;

import static dev.tributary.crawler.parse.Testdata.FEED_URL;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Encodings from the BOM, the XML declaration and the HTTP charset, in that order of trust. */
class EncodingTest {

    private static final String TITLE = "Crème brûlée – “quoted” €5";
    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    private final FeedParser parser = new FeedParser();

    private static String feed(String declaration) {
        return declaration + "<rss version=\"2.0\"><channel><title>" + TITLE + "</title><link>https://example.com/</link>"
                + "<description>d</description><item><title>" + TITLE + "</title></item></channel></rss>";
    }

    private String title(byte[] body, String contentType) throws FeedFormatException {
        return parser.parse(body, contentType, FEED_URL).entries().get(0).title().value();
    }

    private static byte[] concat(byte[] prefix, byte[] rest) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(prefix);
        out.writeBytes(rest);
        return out.toByteArray();
    }

    @Test
    void utf8WithBom() throws Exception {
        byte[] body = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                feed("<?xml version=\"1.0\" encoding=\"UTF-8\"?>").getBytes(StandardCharsets.UTF_8));

        assertThat(title(body, "application/rss+xml")).isEqualTo(TITLE);
    }

    @Test
    void utf16LittleAndBigEndianWithBom() throws Exception {
        // UTF_16LE/BE write no BOM of their own; the declaration says only "UTF-16", as such documents do.
        byte[] little = concat(new byte[] {(byte) 0xFF, (byte) 0xFE},
                feed("<?xml version=\"1.0\" encoding=\"UTF-16\"?>").getBytes(StandardCharsets.UTF_16LE));
        byte[] big = concat(new byte[] {(byte) 0xFE, (byte) 0xFF},
                feed("<?xml version=\"1.0\" encoding=\"UTF-16\"?>").getBytes(StandardCharsets.UTF_16BE));

        assertThat(title(little, "application/xml")).isEqualTo(TITLE);
        assertThat(title(big, null)).isEqualTo(TITLE);
    }

    @Test
    void bomWinsOverAContraryHeader() throws Exception {
        byte[] body = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, feed("").getBytes(StandardCharsets.UTF_16LE));

        assertThat(title(body, "text/xml; charset=ISO-8859-1")).isEqualTo(TITLE);
    }

    @Test
    void iso88591DeclaredInTheXmlProlog() throws Exception {
        String latin1Title = "Crème brûlée à la carte";
        byte[] body = ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>t</title>"
                + "<link>https://example.com/</link><description>d</description><item><title>" + latin1Title
                + "</title></item></channel></rss>").getBytes(StandardCharsets.ISO_8859_1);

        assertThat(title(body, "application/rss+xml")).isEqualTo(latin1Title);
        assertThat(title(body, null)).isEqualTo(latin1Title);
    }

    @Test
    void windows1252FromTheHttpHeader() throws Exception {
        byte[] body = feed("<?xml version=\"1.0\"?>").getBytes(WINDOWS_1252);

        assertThat(title(body, "text/xml; charset=windows-1252")).isEqualTo(TITLE);
        assertThat(title(body, "application/rss+xml;charset=\"windows-1252\"")).isEqualTo(TITLE);
    }

    @Test
    void theXmlDeclarationWinsOverAContraryHttpHeader() throws Exception {
        // Servers add a default charset the document's author never chose; the document knows better.
        byte[] body = feed("<?xml version=\"1.0\" encoding=\"UTF-8\"?>").getBytes(StandardCharsets.UTF_8);

        assertThat(title(body, "text/xml; charset=ISO-8859-1")).isEqualTo(TITLE);
    }

    @Test
    void textXmlWithoutCharsetIsNotReadAsAscii() throws Exception {
        // RFC 3023 would make this US-ASCII; real feeds served so are UTF-8.
        byte[] body = feed("<?xml version=\"1.0\"?>").getBytes(StandardCharsets.UTF_8);

        assertThat(title(body, "text/xml")).isEqualTo(TITLE);
        assertThat(title(body, "text/html")).isEqualTo(TITLE);
    }

    @Test
    void unknownCharsetNamesFallBackToUtf8() throws Exception {
        byte[] body = feed("<?xml version=\"1.0\" encoding=\"x-no-such-charset\"?>").getBytes(StandardCharsets.UTF_8);

        assertThat(title(body, "application/xml; charset=also-unknown")).isEqualTo(TITLE);
    }

    @Test
    void strayBytesInUtf8AreReadAsWindows1252() throws Exception {
        // Mostly UTF-8, with text pasted from windows-1252 (0x92 a quote, 0x80 the euro); 0xC3 0x28 is
        // not UTF-8 either, so it is windows-1252 too; 0x81 is unassigned in windows-1252 and so U+FFFD.
        byte[] body = concat(concat(
                        Testdata.utf8("<rss version=\"2.0\"><channel><title>t</title><item><title>Crème brûlée à la carte, café don"),
                        new byte[] {(byte) 0x92, 't', ' ', (byte) 0x80, '5', ' ', (byte) 0xC3, (byte) 0x28, ' ', (byte) 0x81}),
                Testdata.utf8("</title></item></channel></rss>"));

        assertThat(title(body, "application/xml")).isEqualTo("Crème brûlée à la carte, café don\u2019t \u20AC5 \u00C3( \uFFFD");
        assertThat(title(body, "application/xml; charset=utf-8")).isEqualTo("Crème brûlée à la carte, café don\u2019t \u20AC5 \u00C3( \uFFFD");
    }
}
