package dev.tributary.crawler.parse;

import java.net.URI;
import java.util.List;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.Namespace;
import org.jsoup.Jsoup;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code xml:base} on RSS's {@code <rss>} (or RSS 1.0's {@code <rdf:RDF>}), {@code <channel>} and
 * {@code <item>}, which Rome ignores: each item's and the channel's resulting base is left as a marker
 * element (foreign markup to Rome) that {@link #marked} reads back, as feedparser resolves against it.
 *
 * <p>Applies {@code xml:base} set below an Atom entry (on a {@code link}, {@code content} or {@code summary}),
 * which Rome does not read: relative link hrefs and urls inside the HTML become absolute against that
 * element's base, so that later steps, which know only the feed's and the entry's base, get them right.
 */
final class XmlBases {

    private static final String ATOM_10 = "http://www.w3.org/2005/Atom";
    private static final Namespace MARK = Namespace.getNamespace("tributary-base", "urn:x-tributary:xml-base");

    private XmlBases() {
    }

    static void apply(Document document, URI feedUrl) {
        Element root = document.getRootElement();
        if (root.getName().equals("rss") || root.getName().equals("RDF")) {
            applyRss(root, feedUrl);
            return;
        }
        Namespace atom = root.getNamespace();
        if (!root.getName().equals("feed") || !atom.getURI().equals(ATOM_10) && !atom.getURI().equals(DialectPrepass.ATOM_03.getURI())) {
            return;
        }
        URI feedBase = LinkResolver.base(feedUrl, root.getAttributeValue("base", Namespace.XML_NAMESPACE));
        for (Element entry : root.getChildren("entry", atom)) {
            URI entryBase = LinkResolver.base(feedBase, entry.getAttributeValue("base", Namespace.XML_NAMESPACE));
            for (Element child : entry.getChildren()) {
                String xmlBase = child.getAttributeValue("base", Namespace.XML_NAMESPACE);
                if (xmlBase != null && child.getNamespace().equals(atom)) {
                    absolutize(child, LinkResolver.base(entryBase, xmlBase));
                }
            }
        }
    }

    /**
     * The base an RSS channel or item's {@code xml:base} (with its ancestors') set, as the prepass marked it;
     * null when none was set, and the feed's url stands.
     */
    static @Nullable URI marked(List<Element> foreignMarkup) {
        for (Element element : foreignMarkup) {
            if (MARK.equals(element.getNamespace()) && element.getName().equals("base")) {
                try {
                    return URI.create(element.getTextTrim());
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static void applyRss(Element root, URI feedUrl) {
        String rootBase = root.getAttributeValue("base", Namespace.XML_NAMESPACE);
        URI rssBase = LinkResolver.base(feedUrl, rootBase);
        boolean anySet = rootBase != null;
        // Items sit in the channel (RSS 2.0), beside it (RSS 0.90, 1.0, and some broken 2.0), or both.
        for (Element child : root.getChildren()) {
            if (child.getName().equals("channel")) {
                String channelBase = child.getAttributeValue("base", Namespace.XML_NAMESPACE);
                URI base = LinkResolver.base(rssBase, channelBase);
                boolean set = anySet || channelBase != null;
                mark(child, base, set);
                for (Element item : child.getChildren("item", child.getNamespace())) {
                    markItem(item, base, set);
                }
            } else if (child.getName().equals("item")) {
                markItem(child, rssBase, anySet);
            }
        }
    }

    private static void markItem(Element item, URI parentBase, boolean parentSet) {
        String own = item.getAttributeValue("base", Namespace.XML_NAMESPACE);
        mark(item, LinkResolver.base(parentBase, own), parentSet || own != null);
    }

    private static void mark(Element element, URI base, boolean set) {
        if (set) {
            element.addContent(new Element("base", MARK).setText(base.toString()));
        }
    }

    private static void absolutize(Element element, URI base) {
        if (element.getName().equals("link")) {
            URI href = LinkResolver.resolveHttp(base, element.getAttributeValue("href"));
            if (href != null) {
                element.setAttribute("href", href.toString());
            }
        } else if ("html".equals(element.getAttributeValue("type")) || "escaped".equals(element.getAttributeValue("mode"))) {
            element.setText(absoluteHtml(element.getText(), base));
        }
    }

    /** The HTML with every relative {@code href} and {@code src} made absolute against {@code base}. */
    private static String absoluteHtml(String html, URI base) {
        org.jsoup.nodes.Document fragment = Jsoup.parseBodyFragment(html, base.toString());
        fragment.outputSettings().prettyPrint(false);
        for (org.jsoup.nodes.Element linked : fragment.select("[href], [src]")) {
            for (String attribute : new String[] {"href", "src"}) {
                if (linked.hasAttr(attribute)) {
                    URI absolute = LinkResolver.resolveHttp(base, linked.attr(attribute));
                    if (absolute != null) {
                        linked.attr(attribute, absolute.toString());
                    }
                }
            }
        }
        return fragment.body().html();
    }
}
