package dev.tributary.crawler.parse;

import java.util.ArrayList;
import java.util.List;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.Namespace;

/**
 * Mends, before Rome reads the document, dialects Rome's format parsers do not recognise: Atom 0.3
 * under the namespace spelled without its {@code #} (or with a slash), and RSS whose items sit beside
 * the {@code <channel>} rather than in it (RSS 0.90 and 1.0 put them there on purpose; some RSS 2.0
 * generators do by mistake).
 */
final class DialectPrepass {

    static final Namespace ATOM_03 = Namespace.getNamespace("http://purl.org/atom/ns#");
    private static final String ATOM_03_STEM = "http://purl.org/atom/ns";

    private DialectPrepass() {
    }

    static void apply(Document document) {
        Element root = document.getRootElement();
        if (isAtom03Variant(root.getNamespace())) {
            renameAtom03(root);
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
