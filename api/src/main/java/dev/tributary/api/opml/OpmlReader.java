package dev.tributary.api.opml;

import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.jspecify.annotations.Nullable;

/**
 * Reads the feeds of an OPML 1.0/2.0 document, whatever its nesting (categories are outlines
 * holding outlines; every outline with an {@code xmlUrl} is a feed). A feed's folder is the
 * innermost enclosing outline without an {@code xmlUrl} that has a name ({@code title}, else
 * {@code text}): folders are flat, like Google Reader's labels, so {@code News/Tech/A} files A in
 * {@code Tech} (joining the path would make names that no reader writes back). The document comes from
 * anyone, so it is read as a stream with no DTD: a document that declares one (the way to
 * billion-laughs expansion and external entities) is refused outright, an entity it did not
 * declare cannot be resolved, and XInclude is not a thing StAX does. Outlines are capped, and
 * the JDK's own limits (element depth, attribute and name sizes) refuse the rest.
 */
final class OpmlReader {

    /** Outlines (feeds and categories) in one document. */
    static final int MAX_OUTLINES = 5000;

    private static final XMLInputFactory FACTORY = factory();

    private OpmlReader() {
    }

    /** @throws OpmlException if the document is not OPML, not well-formed, declares a DTD or is too large */
    static List<OpmlFeed> read(byte[] document) {
        XMLStreamReader xml = null;
        try {
            xml = FACTORY.createXMLStreamReader(new ByteArrayInputStream(document));
            return feeds(xml);
        } catch (XMLStreamException e) {
            throw new OpmlException("The document is not well-formed XML" + where(e) + ": " + reason(e));
        } finally {
            close(xml);
        }
    }

    private static List<OpmlFeed> feeds(XMLStreamReader xml) throws XMLStreamException {
        List<OpmlFeed> feeds = new ArrayList<>();
        // The open outlines' folder names, innermost last ("" for an outline that is no folder).
        Deque<String> open = new ArrayDeque<>();
        boolean root = true;
        int outlines = 0;
        while (xml.hasNext()) {
            int event = xml.next();
            if (event == XMLStreamConstants.DTD) {
                throw new OpmlException("Documents with a DTD (<!DOCTYPE …>) are not accepted.");
            }
            if (event == XMLStreamConstants.END_ELEMENT && xml.getLocalName().equals("outline")) {
                open.pollLast();
                continue;
            }
            if (event != XMLStreamConstants.START_ELEMENT) {
                continue;
            }
            if (root && !xml.getLocalName().equals("opml")) {
                throw new OpmlException("This is not an OPML document: its root element is <" + xml.getLocalName() + ">.");
            }
            root = false;
            if (xml.getLocalName().equals("outline")) {
                if (++outlines > MAX_OUTLINES) {
                    throw new OpmlException("The document has more than " + MAX_OUTLINES + " outlines.");
                }
                String url = attribute(xml, "xmlUrl");
                String title = attribute(xml, "title");
                String name = title != null && !title.isBlank() ? title : attribute(xml, "text");
                if (url != null) {
                    feeds.add(new OpmlFeed(url.strip(), title != null ? title : attribute(xml, "text"), attribute(xml, "htmlUrl"),
                            folder(open)));
                    open.addLast("");
                } else {
                    open.addLast(name == null ? "" : name.strip());
                }
            }
        }
        if (root) {
            throw new OpmlException("The document is empty.");
        }
        return feeds;
    }

    private static @Nullable String folder(Deque<String> open) {
        for (Iterator<String> names = open.descendingIterator(); names.hasNext(); ) {
            String name = names.next();
            if (!name.isEmpty()) {
                return name;
            }
        }
        return null;
    }

    /** The attribute of this name, ignoring case: some exporters write {@code xmlurl}. */
    private static @Nullable String attribute(XMLStreamReader xml, String name) {
        for (int i = 0; i < xml.getAttributeCount(); i++) {
            if (xml.getAttributeLocalName(i).equalsIgnoreCase(name)) {
                return xml.getAttributeValue(i);
            }
        }
        return null;
    }

    private static String where(XMLStreamException e) {
        return e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNumber() + ", column "
                + e.getLocation().getColumnNumber() + ")";
    }

    /** The parser's sentence without its position prefix (given by {@link #where}). */
    private static String reason(XMLStreamException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        int start = message.indexOf("Message: ");
        String reason = start < 0 ? message : message.substring(start + "Message: ".length());
        return reason.length() > 300 ? reason.substring(0, 300) + "…" : reason;
    }

    private static void close(@Nullable XMLStreamReader xml) {
        if (xml != null) {
            try {
                xml.close();
            } catch (XMLStreamException ignored) {
                // nothing was held open but the in-memory stream
            }
        }
    }

    private static XMLInputFactory factory() {
        // The JDK's own parser, not whichever StAX implementation is on the class path, so these settings hold.
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, false);
        factory.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("external resources are not read: " + systemId);
        });
        return factory;
    }
}
