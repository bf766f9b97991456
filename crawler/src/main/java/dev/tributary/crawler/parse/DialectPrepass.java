package dev.tributary.crawler.parse;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.IllegalAddException;
import org.jdom2.Namespace;
import org.jspecify.annotations.Nullable;

/**
 * Mends, before Rome reads the document, dialects Rome's format parsers do not recognise: Atom 0.3
 * under the namespace spelled without its {@code #} (or with a slash), and RSS whose items sit beside
 * the {@code <channel>} rather than in it (RSS 0.90 and 1.0 put them there on purpose; some RSS 2.0
 * generators do by mistake); namespaces spelled otherwise than Rome expects (the iTunes one as Apple
 * once printed it, {@code http://www.itunes.com/DTDs/Podcast-1.0.dtd}; Media RSS without its trailing
 * slash), which feedparser matches case-insensitively; a channel titled only by {@code dc:title}; Atom
 * HTML text constructs holding markup unescaped (TypePad's {@code <content type="html"><div
 * xmlns="http://www.w3.org/1999/xhtml">}), of which Rome would keep only the text directly inside: none.
 */
final class DialectPrepass {

    static final Namespace ATOM_03 = Namespace.getNamespace("http://purl.org/atom/ns#");
    private static final String ATOM_03_STEM = "http://purl.org/atom/ns";
    private static final Namespace DC = Namespace.getNamespace("http://purl.org/dc/elements/1.1/");
    private static final Set<String> TEXT_CONSTRUCTS = Set.of("title", "subtitle", "tagline", "summary", "content", "rights", "info");
    // Each namespace's usual spelling, by its lower-case form without a trailing slash.
    private static final Map<String, String> SPELLINGS = Map.of(
            "http://www.itunes.com/dtds/podcast-1.0.dtd", "http://www.itunes.com/dtds/podcast-1.0.dtd",
            "http://search.yahoo.com/mrss", "http://search.yahoo.com/mrss/",
            "http://purl.org/dc/elements/1.1", "http://purl.org/dc/elements/1.1/",
            "http://purl.org/rss/1.0/modules/content", "http://purl.org/rss/1.0/modules/content/");

    private DialectPrepass() {
    }

    static void apply(Document document) {
        Element root = document.getRootElement();
        if (isAtom03Variant(root.getNamespace())) {
            renameAtom03(root);
        }
        respell(root);
        if (root.getName().equals("feed") && root.getNamespace().equals(ATOM_03)) {
            decodeBase64(root);
        }
        if (root.getName().equals("feed")) {
            serialiseUnescapedHtml(root);
            root.getChildren("entry", root.getNamespace()).forEach(DialectPrepass::serialiseUnescapedHtml);
        }
        if (root.getName().equals("rss") || root.getName().equals("RDF")) {
            Element channel = root.getChildren().stream().filter(child -> child.getName().equals("channel")).findFirst().orElse(null);
            if (channel != null && channel.getChild("title", channel.getNamespace()) == null
                    && channel.getChild("title", DC) != null) {
                channel.addContent(0, new Element("title", channel.getNamespace()).setText(channel.getChild("title", DC).getText()));
            }
        }
        if (root.getName().equals("rss")) {
            moveStrayItems(root);
            Element channel = root.getChild("channel", root.getNamespace());
            if (channel != null) {
                channel.getChildren("item", channel.getNamespace()).forEach(VocabularyFallbacks::apply);
            }
        } else if (root.getName().equals("RDF")) {
            root.getChildren().stream().filter(child -> child.getName().equals("item")).forEach(VocabularyFallbacks::apply);
        }
    }

    private static boolean isAtom03Variant(Namespace namespace) {
        String uri = namespace.getURI();
        return !uri.equals(ATOM_03.getURI()) && uri.startsWith(ATOM_03_STEM) && uri.length() <= ATOM_03_STEM.length() + 1;
    }

    /** Every element of the variant namespace moved into the one Rome knows. Iterative: the tree may be deep. */
    private static void renameAtom03(Element root) {
        Namespace variant = root.getNamespace();
        List<Element> pending = new ArrayList<>(List.of(root));
        while (!pending.isEmpty()) {
            Element element = pending.removeLast();
            if (element.getNamespace().equals(variant)) {
                element.setNamespace(Namespace.getNamespace(element.getNamespacePrefix(), ATOM_03.getURI()));
            }
            pending.addAll(element.getChildren());
        }
    }

    /** Elements of a namespace spelled unusually ({@link #SPELLINGS}) moved into its usual spelling. Iterative: the tree may be deep. */
    private static void respell(Element root) {
        List<Element> pending = new ArrayList<>(List.of(root));
        while (!pending.isEmpty()) {
            Element element = pending.removeLast();
            String uri = element.getNamespaceURI();
            if (!uri.isEmpty()) {
                String key = uri.toLowerCase(Locale.ROOT);
                String usual = SPELLINGS.get(key.endsWith("/") ? key.substring(0, key.length() - 1) : key);
                if (usual != null && !usual.equals(uri)) {
                    try {
                        element.setNamespace(Namespace.getNamespace(element.getNamespacePrefix(), usual));
                    } catch (IllegalAddException e) {
                        // The prefix is bound otherwise on this very element: left as written.
                    }
                }
            }
            pending.addAll(element.getChildren());
        }
    }

    /**
     * Atom 0.3 {@code mode="base64"} decoded here, leniently (line breaks, missing padding), rather than
     * by Rome, whose strict decoder fails the whole feed on one bad construct. Text that is not base64,
     * or not UTF-8 once decoded, is left as written with its mode dropped, as feedparser leaves it.
     */
    private static void decodeBase64(Element root) {
        List<Element> pending = new ArrayList<>(List.of(root));
        while (!pending.isEmpty()) {
            Element element = pending.removeLast();
            if ("base64".equalsIgnoreCase(element.getAttributeValue("mode")) && element.getChildren().isEmpty()) {
                String decoded = base64Utf8(element.getText());
                if (decoded != null) {
                    element.setText(decoded);
                    element.setAttribute("mode", "escaped");
                } else {
                    element.removeAttribute("mode");
                }
            }
            pending.addAll(element.getChildren());
        }
    }

    private static @Nullable String base64Utf8(String text) {
        try {
            byte[] bytes = Base64.getMimeDecoder().decode(text.strip());
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            return null;
        }
    }

    /**
     * Each HTML text construct of a feed or entry that holds elements: its markup serialised into its text,
     * as feedparser reads it (its strict parser keeps unknown elements inside content as markup).
     */
    private static void serialiseUnescapedHtml(Element feedOrEntry) {
        for (Element construct : feedOrEntry.getChildren()) {
            String type = construct.getAttributeValue("type");
            if (type != null && construct.getNamespace().equals(feedOrEntry.getNamespace()) && TEXT_CONSTRUCTS.contains(construct.getName())
                    && !construct.getChildren().isEmpty() && isHtmlType(type.strip().toLowerCase(Locale.ROOT))
                    // Atom 0.3 mode="xml" means the markup is meant as such, and Rome serialises it itself.
                    && (construct.getAttributeValue("mode") == null || "escaped".equalsIgnoreCase(construct.getAttributeValue("mode")))) {
                String html = VocabularyFallbacks.xhtmlBody(construct);
                construct.setText(html == null ? "" : html);
            }
        }
    }

    /** Atom 1.0's {@code html}, or Atom 0.3's {@code text/html} (xhtml constructs Rome serialises itself). */
    private static boolean isHtmlType(String type) {
        return type.equals("html") || type.equals("text/html");
    }

    /** RSS 2.0 {@code <item>}s that are children of {@code <rss>} moved to the end of its channel (made if missing). */
    private static void moveStrayItems(Element rss) {
        List<Element> stray = new ArrayList<>(rss.getChildren("item", rss.getNamespace()));
        if (stray.isEmpty()) {
            return;
        }
        Element channel = rss.getChild("channel", rss.getNamespace());
        if (channel == null) {
            channel = new Element("channel", rss.getNamespace());
            rss.addContent(channel);
        }
        for (Element item : stray) {
            channel.addContent(item.detach());
        }
    }
}
