package dev.tributary.crawler.parse;

import org.jdom2.Attribute;
import org.jdom2.Content;
import org.jdom2.DefaultJDOMFactory;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.Namespace;
import org.jdom2.Parent;

/**
 * Builds a JDOM tree of at most so many nodes (elements, attributes, namespace declarations, text,
 * comments), failing the parse at the first one beyond. Without it a document's heap is bounded only
 * by its size, and {@code <a/>} costs four bytes of text (a few bits gzip'd) but a hundred of heap.
 * One per parse: it counts.
 */
final class NodeBudget extends DefaultJDOMFactory {

    /** Thrown through the parser when the budget is spent; carries no stack trace, as it is expected. */
    static final class Exceeded extends RuntimeException {
        Exceeded(int limit) {
            super("more than " + limit + " XML nodes", null, false, false);
        }
    }

    private final int limit;
    private int used;

    NodeBudget(int limit) {
        this.limit = limit;
    }

    @Override
    public void setRoot(Document document, Element root) {
        spend();
        super.setRoot(document, root);
    }

    @Override
    public void addContent(Parent parent, Content child) {
        spend();
        super.addContent(parent, child);
    }

    @Override
    public void setAttribute(Element parent, Attribute attribute) {
        spend();
        super.setAttribute(parent, attribute);
    }

    @Override
    public void addNamespaceDeclaration(Element parent, Namespace additional) {
        spend();
        super.addNamespaceDeclaration(parent, additional);
    }

    private void spend() {
        if (++used > limit) {
            throw new Exceeded(limit);
        }
    }
}
