package dev.tributary.crawler.parse;

import static dev.tributary.crawler.parse.Testdata.FEED_URL;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The charset rule of {@link XmlDecoding} on the cases real feeds get wrong: UTF-16 without a BOM,
 * undeclared legacy encodings, labels that contradict each other or the bytes, bogus labels.
 */
class CharsetRulesTest {

    private static final String JAPANESE = "日本語のニュースです。今日は天気がいいので、公園に散歩に行きました。";
    private static final String KOREAN = "한국어 뉴스입니다. 오늘은 날씨가 좋아서 공원에 산책을 갔습니다.";
    private static final String CHINESE = "这是中文新闻。今天天气很好，所以我们去公园散步了。";
    private static final String TRADITIONAL = "這是中文新聞。今天天氣很好，所以我們去公園散步了。";
    private static final String RUSSIAN = "Это русские новости. Сегодня хорошая погода, поэтому мы пошли гулять в парк.";

    private final FeedParser parser = new FeedParser();

    private String firstTitle(byte[] body, String contentType) throws FeedFormatException {
        return parser.parse(body, contentType, FEED_URL).entries().get(0).title().value();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "eucjp-undeclared.xml, ja",
            "shiftjis-undeclared.xml, ja",
            "euckr-undeclared.xml, ko",
            "gb2312-undeclared.xml, zh",
            "big5-undeclared.xml, zht",
            "big5-declared.xml, zht",
            "koi8r-undeclared.xml, ru",
            "windows1251-undeclared.xml, ru",
            "utf16le-nobom.xml, ja",
            "utf16be-nobom.xml, ja"})
    void legacyAndWideEncodingsAreReadWithoutALabel(String file, String language) throws Exception {
        String expected = switch (language) {
            case "ja" -> JAPANESE;
            case "ko" -> KOREAN;
            case "zh" -> CHINESE;
            case "zht" -> TRADITIONAL;
            default -> RUSSIAN;
        };

        assertThat(firstTitle(Testdata.bytes("encodings/" + file), "application/rss+xml")).isEqualTo(expected);
        // text/xml without a charset is not US-ASCII (RFC 3023's rule), and a bogus charset is ignored.
        assertThat(firstTitle(Testdata.bytes("encodings/" + file), "text/xml")).isEqualTo(expected);
        assertThat(firstTitle(Testdata.bytes("encodings/" + file), "text/xml; charset=no-such-thing")).isEqualTo(expected);
    }

    @Test
    void iso88591IsReadAsWindows1252() throws Exception {
        byte[] body = Testdata.bytes("encodings/latin1-declared-cp1252.xml");

        assertThat(firstTitle(body, "application/rss+xml")).isEqualTo("Don’t pay €5 – “really”");
        assertThat(firstTitle(body, "text/xml; charset=iso-8859-1")).isEqualTo("Don’t pay €5 – “really”");
        assertThat(firstTitle(body, "text/xml; charset=latin1")).isEqualTo("Don’t pay €5 – “really”");
    }

    @Test
    void declaredUtf8ThatIsWindows1252IsReadAsWindows1252() throws Exception {
        byte[] body = Testdata.rss("<item><title>Don’t pay €5 – “really”</title></item>").getBytes(Charset.forName("windows-1252"));

        assertThat(firstTitle(body, "application/rss+xml; charset=utf-8")).isEqualTo("Don’t pay €5 – “really”");
    }

    @Test
    void theDeclarationWinsOverAServerDefaultWhenBothFitTheBytes() throws Exception {
        byte[] body = ("<?xml version=\"1.0\" encoding=\"KOI8-R\"?>" + rssBody(RUSSIAN)).getBytes(Charset.forName("KOI8-R"));

        assertThat(firstTitle(body, "text/xml; charset=ISO-8859-1")).isEqualTo(RUSSIAN);
    }

    @Test
    void theHttpCharsetWinsOverTheDeclaration() throws Exception {
        // RFC 7303 and feedparser: the header first. Issue 47: this read "ÁÂ×" for "абв".
        byte[] file = Testdata.bytes("encodings/koi8r-served-declared-latin1.xml");
        byte[] inline = ("<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>" + rssBody("абв")).getBytes(Charset.forName("KOI8-R"));

        assertThat(firstTitle(file, "application/rss+xml; charset=koi8-r")).isEqualTo("Новости дня");
        assertThat(firstTitle(inline, "text/xml; charset=KOI8-R")).isEqualTo("абв");
        // The server default (ISO-8859-1) alone yields to a declaration naming something else.
        byte[] declaredKoi8 = ("<?xml version=\"1.0\" encoding=\"koi8-r\"?>" + rssBody("абв")).getBytes(Charset.forName("KOI8-R"));
        assertThat(firstTitle(declaredKoi8, "text/xml; charset=ISO-8859-1")).isEqualTo("абв");
    }

    @Test
    void theHeaderWinsWhenTheDeclarationDoesNotFitTheBytes() throws Exception {
        // A template says UTF-8, the server (rightly) says windows-1251.
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + rssBody(RUSSIAN)).getBytes(Charset.forName("windows-1251"));

        assertThat(firstTitle(body, "application/rss+xml; charset=windows-1251")).isEqualTo(RUSSIAN);
    }

    @Test
    void wellFormedUtf8WinsOverContraryLabels() throws Exception {
        byte[] body = ("<?xml version=\"1.0\" encoding=\"windows-1252\"?>" + rssBody(JAPANESE)).getBytes(StandardCharsets.UTF_8);

        assertThat(firstTitle(body, "text/xml; charset=ISO-8859-1")).isEqualTo(JAPANESE);
    }

    @Test
    void aUtf16LabelOnAnAsciiCompatibleBodyIsIgnored() throws Exception {
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + rssBody("Crème brûlée")).getBytes(StandardCharsets.UTF_8);

        assertThat(firstTitle(body, "application/xml; charset=utf-16")).isEqualTo("Crème brûlée");
    }

    @Test
    void utf16WithoutBomWhateverTheHeaderSays() throws Exception {
        byte[] body = ("<?xml version=\"1.0\"?>" + rssBody(KOREAN)).getBytes(StandardCharsets.UTF_16LE);

        assertThat(firstTitle(body, "text/xml; charset=iso-8859-1")).isEqualTo(KOREAN);
    }

    @Test
    void utf32WithAndWithoutBom() throws Exception {
        Charset utf32 = Charset.forName("UTF-32BE");
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-32\"?>" + rssBody(CHINESE)).getBytes(utf32);

        assertThat(firstTitle(body, null)).isEqualTo(CHINESE);
        byte[] withBom = new byte[body.length + 4];
        withBom[2] = (byte) 0xFE;
        withBom[3] = (byte) 0xFF;
        System.arraycopy(body, 0, withBom, 4, body.length);
        assertThat(firstTitle(withBom, null)).isEqualTo(CHINESE);
    }

    @Test
    void iso2022JpIsReadByItsLabel() throws Exception {
        byte[] body = ("<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?>" + rssBody(JAPANESE)).getBytes(Charset.forName("ISO-2022-JP"));

        assertThat(firstTitle(body, "application/rss+xml")).isEqualTo(JAPANESE);
    }

    @Test
    void declarationsAreReadAfterJunk() {
        assertThat(XmlDecoding.declaredEncoding("\n\nWarning: x\n<?xml version='1.0' encoding='Shift_JIS' ?><rss/>"
                .getBytes(StandardCharsets.US_ASCII))).isEqualTo("Shift_JIS");
        assertThat(XmlDecoding.declaredEncoding("<?xml version=\"1.0\"?><rss encoding=\"x\"/>".getBytes(StandardCharsets.US_ASCII)))
                .isNull();
    }

    private static String rssBody(String title) {
        return "<rss version=\"2.0\"><channel><title>t</title><link>https://example.com/</link><description>d</description>"
                + "<item><title>" + title + "</title></item></channel></rss>";
    }
}
