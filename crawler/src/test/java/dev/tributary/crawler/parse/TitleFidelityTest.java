package dev.tributary.crawler.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.crawler.normalize.EntryNormalizer;
import dev.tributary.crawler.normalize.FeedDocument;
import dev.tributary.pubsub.NewItem;
import java.io.IOException;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.jsoup.parser.Parser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every feed under {@code src/test/resources}: no title loses text. The raw title is the element's text
 * content, decoded as our decoder decodes the document; its words (bar the tags of HTML elements and the
 * entity references, which are markup) must all be in some normalised title of that feed (issue 47, item 1).
 */
class TitleFidelityTest {

    private static final Instant FETCHED = Instant.parse("2026-01-01T00:00:00Z");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    // Tags of real HTML elements, comments and CDATA markers are markup a title may lose; other brackets are text.
    private static final Pattern MARKUP = Pattern.compile("</?(?:a|abbr|b|br|cite|code|del|div|em|i|img|ins|kbd|mark|p|q|s|"
            + "small|span|strong|sub|sup|u|tt|var)(?:\\s[^<>]*)?/?>|<!--.*?-->|<!\\[CDATA\\[|]]>",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private final FeedParser parser = new FeedParser();
    private final EntryNormalizer normalizer = new EntryNormalizer(500);

    static Stream<Path> feeds() throws IOException, URISyntaxException {
        Path root = Path.of(Testdata.class.getResource("/").toURI());
        return Files.walk(root).filter(Files::isRegularFile)
                .filter(path -> path.toString().endsWith(".xml") || path.toString().endsWith(".json")).sorted();
    }

    @ParameterizedTest
    @MethodSource("feeds")
    void noTitleLosesText(Path feed) throws Exception {
        byte[] body = Files.readAllBytes(feed);
        FeedDocument document = normalizer.normalize(parser.parse(body, null, Testdata.FEED_URL), FETCHED);
        List<Set<String>> normalised = new ArrayList<>();
        normalised.add(words(document.title()));
        for (NewItem item : document.items()) {
            normalised.add(words(item.title()));
        }
        List<String> raw = feed.toString().endsWith(".json") ? jsonTitles(body) : xmlTitles(XmlDecoding.decode(body, null));
        assertThat(raw).as("titles read from %s", feed.getFileName()).isNotEmpty();
        for (String title : raw) {
            Set<String> words = words(MARKUP.matcher(decoded(title)).replaceAll(" "));
            assertThat(normalised).as("%s: the title %s", feed.getFileName(), title)
                    .anySatisfy(kept -> assertThat(kept).containsAll(words));
        }
    }

    /** Entity references as a double-escaping feed leaves them, decoded: they are markup, not words. */
    private static String decoded(String text) {
        return Parser.unescapeEntities(Parser.unescapeEntities(text, false), false);
    }

    private static Set<String> words(String text) {
        Set<String> words = new HashSet<>();
        if (text != null) {
            Matcher word = WORD.matcher(text);
            while (word.find()) {
                words.add(word.group().toLowerCase(Locale.ROOT));
            }
        }
        return words;
    }

    /** The text of each feed's, channel's, item's and entry's own title (dc:title where there is no other). */
    private static List<String> xmlTitles(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        org.w3c.dom.Document document = factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
        List<String> titles = new ArrayList<>();
        List<Element> pending = new ArrayList<>(List.of(document.getDocumentElement()));
        while (!pending.isEmpty()) {
            Element element = pending.removeLast();
            NodeList children = element.getChildNodes();
            Element title = null;
            Element dcTitle = null;
            for (int i = 0; i < children.getLength(); i++) {
                if (children.item(i) instanceof Element child) {
                    pending.add(child);
                    if ("title".equals(child.getLocalName())) {
                        if ("http://purl.org/dc/elements/1.1/".equals(child.getNamespaceURI())) {
                            dcTitle = dcTitle == null ? child : dcTitle;
                        } else if (child.getNamespaceURI() == null || !child.getNamespaceURI().contains("search.yahoo.com")) {
                            title = title == null ? child : title;
                        }
                    }
                }
            }
            Element own = title != null ? title : dcTitle;
            if (own != null && isTitled(element) && !"base64".equals(own.getAttribute("mode"))) {
                titles.add(own.getTextContent());
            }
        }
        return titles;
    }

    private static boolean isTitled(Node element) {
        return Set.of("channel", "item", "feed", "entry").contains(element.getLocalName());
    }

    private static List<String> jsonTitles(byte[] body) {
        JsonNode root = JsonMapper.builder().build().readTree(body);
        List<String> titles = new ArrayList<>();
        if (root.hasNonNull("title")) {
            titles.add(root.get("title").asString());
        }
        for (JsonNode item : root.path("items")) {
            if (item.hasNonNull("title")) {
                titles.add(item.get("title").asString());
            }
        }
        return titles;
    }
}
