package dev.tributary.crawler.parse;

import java.util.List;
import org.jdom2.Content;
import org.jdom2.Element;
import org.jdom2.Namespace;
import org.jdom2.output.Format;
import org.jdom2.output.XMLOutputter;
import org.jspecify.annotations.Nullable;

/**
 * Fills an RSS item's core elements, where it lacks them, from the vocabularies feeds use instead:
 * {@code dc:title}, {@code dc:description}, {@code itunes:summary} and an {@code xhtml:body} for the
 * description, {@code itunes:author} for the author, {@code itunes:category} and {@code media:category}
 * as categories. Done on the tree before Rome reads it, so every later step sees plain RSS.
 */
final class VocabularyFallbacks {

    private static final Namespace DC = Namespace.getNamespace("http://purl.org/dc/elements/1.1/");
    private static final Namespace ITUNES = Namespace.getNamespace("http://www.itunes.com/dtds/podcast-1.0.dtd");
    private static final Namespace MEDIA = Namespace.getNamespace("http://search.yahoo.com/mrss/");
    private static final Namespace XHTML = Namespace.getNamespace("http://www.w3.org/1999/xhtml");
    private static final Namespace CONTENT = Namespace.getNamespace("http://purl.org/rss/1.0/modules/content/");

    private VocabularyFallbacks() {
    }

    static void apply(Element item) {
        Namespace rss = item.getNamespace();
        fill(item, "title", text(item.getChild("title", DC)));
        if (item.getChild("description", rss) == null && item.getChild("encoded", CONTENT) == null) {
            String description = text(item.getChild("description", DC));
            if (description == null) {
                description = text(item.getChild("summary", ITUNES));
            }
            fill(item, "description", description != null ? description : xhtmlBody(item.getChild("body", XHTML)));
        }
        if (item.getChild("creator", DC) == null) {
            fill(item, "author", text(item.getChild("author", ITUNES)));
        }
        for (Element category : item.getChildren("category", ITUNES)) {
            add(item, "category", category.getAttributeValue("text"));
        }
        for (Element category : item.getChildren("category", MEDIA)) {
            add(item, "category", text(category));
        }
    }

    private static void fill(Element item, String name, @Nullable String value) {
        if (item.getChild(name, item.getNamespace()) == null) {
            add(item, name, value);
        }
    }

    private static void add(Element item, String name, @Nullable String value) {
        if (value != null && !value.isBlank()) {
            item.addContent(new Element(name, item.getNamespace()).setText(value));
        }
    }

    private static @Nullable String text(@Nullable Element element) {
        return element == null ? null : element.getText();
    }

    /** The element's children serialised as (X)HTML, without their XHTML namespace declarations. */
    static @Nullable String xhtmlBody(@Nullable Element body) {
        if (body == null) {
            return null;
        }
        List<Content> children = body.cloneContent();
        for (Content child : children) {
            if (child instanceof Element element) {
                stripNamespace(element);
            }
        }
        String html = new XMLOutputter(Format.getRawFormat().setOmitDeclaration(true)).outputString(children);
        return html.isBlank() ? null : html;
    }

    private static void stripNamespace(Element element) {
        if (element.getNamespace().equals(XHTML)) {
            element.setNamespace(Namespace.NO_NAMESPACE);
        }
        element.getChildren().forEach(VocabularyFallbacks::stripNamespace);
    }

}
