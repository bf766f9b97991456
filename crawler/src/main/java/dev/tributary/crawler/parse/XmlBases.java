package dev.tributary.crawler.parse;

import java.net.URI;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.Namespace;
import org.jsoup.Jsoup;

/**
 * Applies {@code xml:base} set below an Atom entry (on a {@code link}, {@code content} or {@code summary}),
 * which Rome does not read: relative link hrefs and urls inside the HTML become absolute against that
 * element's base, so that later steps, which know only the feed's and the entry's base, get them right.
 */
final class XmlBases {

    private static final String ATOM_10 = "http://www.w3.org/2005/Atom";

    private XmlBases() {
    }

    static void apply(Document document, URI feedUrl) {
        Element root = document.getRootElement();
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
