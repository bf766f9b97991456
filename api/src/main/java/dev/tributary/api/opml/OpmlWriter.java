package dev.tributary.api.opml;

import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.jspecify.annotations.Nullable;

/**
 * Writes feeds as an OPML 2.0 document (UTF-8), the format every feed reader imports: feeds in
 * no folder at the top, then each folder as an outline holding its feeds (a feed in several
 * folders is written in each).
 */
final class OpmlWriter {

    private static final XMLOutputFactory FACTORY = XMLOutputFactory.newDefaultFactory();

    private OpmlWriter() {
    }

    /** A folder and the feeds filed in it. */
    record Folder(String name, List<OpmlFeed> feeds) {
    }

    static byte[] write(String title, Instant created, List<OpmlFeed> feeds) {
        return write(title, created, feeds, List.of());
    }

    static byte[] write(String title, Instant created, List<OpmlFeed> feeds, List<Folder> folders) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            XMLStreamWriter xml = FACTORY.createXMLStreamWriter(out, "UTF-8");
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeStartElement("opml");
            xml.writeAttribute("version", "2.0");
            xml.writeStartElement("head");
            element(xml, "title", title);
            element(xml, "dateCreated", DateTimeFormatter.RFC_1123_DATE_TIME.format(created.atOffset(ZoneOffset.UTC)));
            xml.writeEndElement();
            xml.writeStartElement("body");
            for (OpmlFeed feed : feeds) {
                feed(xml, feed);
            }
            for (Folder folder : folders) {
                xml.writeStartElement("outline");
                xml.writeAttribute("text", safe(folder.name()));
                xml.writeAttribute("title", safe(folder.name()));
                for (OpmlFeed feed : folder.feeds()) {
                    feed(xml, feed);
                }
                xml.writeEndElement();
            }
            xml.writeEndElement();
            xml.writeEndElement();
            xml.writeEndDocument();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write OPML", e);
        }
        return out.toByteArray();
    }

    private static void feed(XMLStreamWriter xml, OpmlFeed feed) throws XMLStreamException {
        xml.writeEmptyElement("outline");
        String name = safe(feed.title() != null && !feed.title().isBlank() ? feed.title() : feed.xmlUrl());
        xml.writeAttribute("type", "rss");
        xml.writeAttribute("text", name);
        xml.writeAttribute("title", name);
        xml.writeAttribute("xmlUrl", safe(feed.xmlUrl()));
        if (feed.htmlUrl() != null) {
            xml.writeAttribute("htmlUrl", safe(feed.htmlUrl()));
        }
    }

    private static void element(XMLStreamWriter xml, String name, String text) throws XMLStreamException {
        xml.writeStartElement(name);
        xml.writeCharacters(safe(text));
        xml.writeEndElement();
    }

    /** Feed titles come from anywhere (JSON Feed too): characters XML cannot carry are dropped. */
    private static String safe(@Nullable String text) {
        if (text == null) {
            return "";
        }
        StringBuilder safe = new StringBuilder(text.length());
        text.codePoints().filter(c -> c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c <= 0xD7FF
                || c >= 0xE000 && c <= 0xFFFD || c >= 0x10000 && c <= 0x10FFFF).forEach(safe::appendCodePoint);
        return safe.toString();
    }
}
