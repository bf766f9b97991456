package dev.tributary.crawler.parse;

import static dev.tributary.crawler.parse.Testdata.FEED_URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random feeds in random encodings, labelled in random ways real servers and templates do (declaration,
 * header, a server default against the declaration, a wrong template declaration against the header,
 * a BOM, nothing at all): every one reads back its titles exactly. Seeded, so a failure repeats.
 */
class EncodingFuzzTest {

    private record Script(String charset, String label, boolean detectable, List<String> sentences) {
    }

    private static final List<Script> SCRIPTS = List.of(
            new Script("UTF-8", "UTF-8", true, List.of("Crème brûlée – “quoted” €5.", "日本語のニュースです。", "Это новости.", "😀 emoji")),
            new Script("UTF-16LE", "UTF-16", true, List.of("Crème brûlée – “quoted”.", "한국어 뉴스입니다.", "这是中文新闻。")),
            new Script("UTF-16BE", "UTF-16", true, List.of("Crème brûlée – “quoted”.", "한국어 뉴스입니다.", "这是中文新闻。")),
            new Script("windows-1252", "ISO-8859-1", false, List.of("Don’t pay €5 – “really”.", "Crème brûlée à la carte.", "Naïve façade, œuvre.")),
            new Script("windows-1252", "windows-1252", false, List.of("Don’t pay €5 – “really”.", "Crème brûlée à la carte.")),
            new Script("KOI8-R", "KOI8-R", true, List.of("Это русские новости.", "Сегодня хорошая погода, поэтому мы пошли гулять в парк.",
                    "Цветы были очень красивыми.", "Возле вокзала открылся новый книжный магазин.")),
            new Script("windows-1251", "windows-1251", true, List.of("Это русские новости.", "Сегодня хорошая погода, поэтому мы пошли гулять в парк.",
                    "Цветы были очень красивыми.", "Возле вокзала открылся новый книжный магазин.")),
            new Script("Shift_JIS", "Shift_JIS", true, List.of("日本語のニュースです。", "今日は天気がいいので、公園に散歩に行きました。",
                    "桜の花がとてもきれいでした。", "東京の駅前に新しい本屋ができました。")),
            new Script("EUC-JP", "EUC-JP", true, List.of("日本語のニュースです。", "今日は天気がいいので、公園に散歩に行きました。",
                    "桜の花がとてもきれいでした。", "東京の駅前に新しい本屋ができました。")),
            new Script("EUC-KR", "EUC-KR", true, List.of("한국어 뉴스입니다.", "오늘은 날씨가 좋아서 공원에 산책을 갔습니다.",
                    "벚꽃이 매우 아름다웠습니다.", "서울 역 앞에 새로운 서점이 생겼습니다.")),
            new Script("GB2312", "GB2312", true, List.of("这是中文新闻。", "今天天气很好，所以我们去公园散步了。", "樱花非常漂亮。",
                    "北京车站前开了一家新书店。")),
            new Script("Big5", "Big5", true, List.of("這是中文新聞。", "今天天氣很好，所以我們去公園散步了。", "櫻花非常漂亮。",
                    "台北車站前開了一家新書店。")));

    private enum Labelling { DECLARATION, HEADER, SERVER_DEFAULT, WRONG_TEMPLATE, BOM, NONE }

    private final FeedParser parser = new FeedParser();

    @Test
    void randomFeedsInRandomEncodingsReadBackExactly() throws Exception {
        Random random = new Random(20261123);
        for (int round = 0; round < 400; round++) {
            Script script = SCRIPTS.get(random.nextInt(SCRIPTS.size()));
            Labelling labelling = Labelling.values()[random.nextInt(Labelling.values().length)];
            if (!applies(labelling, script)) {
                continue;
            }
            List<String> titles = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                List<String> sentences = new ArrayList<>(script.sentences());
                Collections.shuffle(sentences, random);
                titles.add(String.join(" ", sentences.subList(0, 1 + random.nextInt(sentences.size()))) + " #" + round + "." + i);
            }
            String declaration = switch (labelling) {
                case DECLARATION, SERVER_DEFAULT -> "<?xml version=\"1.0\" encoding=\"" + script.label() + "\"?>";
                case WRONG_TEMPLATE -> "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
                default -> "<?xml version=\"1.0\"?>";
            };
            String contentType = switch (labelling) {
                case HEADER, WRONG_TEMPLATE -> "application/rss+xml; charset=" + script.label();
                case SERVER_DEFAULT -> "text/xml; charset=ISO-8859-1";
                default -> random.nextBoolean() ? "text/xml" : "application/rss+xml";
            };
            byte[] body = encode(labelling, script, declaration + rss(titles));

            ParsedFeed feed = parser.parse(body, contentType, FEED_URL);

            assertThat(feed.entries()).as("%s as %s, %s", script.charset(), labelling, contentType)
                    .extracting(entry -> entry.title().value()).containsExactlyElementsOf(titles);
        }
    }

    @Test
    void randomBytesUnderRandomLabelsAreReadOrRefusedNeverThrown() {
        Random random = new Random(42);
        String[] labels = {"utf-8", "utf-16", "utf-32", "big5", "shift_jis", "iso-2022-jp", "bogus", "koi8-r", ""};
        for (int round = 0; round < 500; round++) {
            byte[] noise = new byte[random.nextInt(600)];
            random.nextBytes(noise);
            String label = labels[random.nextInt(labels.length)];
            String prefix = random.nextBoolean() ? "<?xml version=\"1.0\" encoding=\"" + label + "\"?><rss version=\"2.0\"><channel><item><title>" : "";
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(prefix.getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(noise);
            out.writeBytes(prefix.isEmpty() ? new byte[0] : "</title></item></channel></rss>".getBytes(StandardCharsets.US_ASCII));
            byte[] body = out.toByteArray();

            Throwable thrown = catchThrowable(() -> parser.parse(body, "text/xml; charset=" + label, FEED_URL));

            assertThat(thrown).as("round %d", round).satisfiesAnyOf(
                    t -> assertThat(t).isNull(), t -> assertThat(t).isInstanceOf(FeedFormatException.class));
        }
        assertThatCode(() -> XmlDecoding.decode(new byte[] {0, 0, 0}, "text/xml; charset=utf-32")).doesNotThrowAnyException();
    }

    private static boolean applies(Labelling labelling, Script script) {
        boolean unicode = script.charset().startsWith("UTF");
        return switch (labelling) {
            case BOM -> unicode;
            // Without a label only the byte structure tells: UTF-16 by its NULs, legacy text by the detector.
            case NONE -> script.detectable();
            // A wrong UTF-8 declaration is told apart only when the bytes are not UTF-8: not for UTF-8 itself.
            case WRONG_TEMPLATE, SERVER_DEFAULT, HEADER -> !script.charset().startsWith("UTF-16");
            case DECLARATION -> true;
        };
    }

    private static byte[] encode(Labelling labelling, Script script, String document) {
        Charset charset = Charset.forName(script.charset());
        byte[] bytes = document.getBytes(charset);
        if (labelling != Labelling.BOM) {
            return bytes;
        }
        byte[] bom = switch (script.charset()) {
            case "UTF-16LE" -> new byte[] {(byte) 0xFF, (byte) 0xFE};
            case "UTF-16BE" -> new byte[] {(byte) 0xFE, (byte) 0xFF};
            default -> new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(bom);
        out.writeBytes(bytes);
        return out.toByteArray();
    }

    private static String rss(List<String> titles) {
        StringBuilder items = new StringBuilder();
        for (String title : titles) {
            items.append("<item><title>").append(title).append("</title><description>").append(title).append("</description></item>");
        }
        return "<rss version=\"2.0\"><channel><title>t</title><link>https://example.com/</link><description>d</description>"
                + items + "</channel></rss>";
    }
}
