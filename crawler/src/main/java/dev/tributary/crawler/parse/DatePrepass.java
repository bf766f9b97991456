package dev.tributary.crawler.parse;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.Namespace;
import org.jspecify.annotations.Nullable;

/**
 * Takes dates out of Rome's way. Rome parses every date by trying a dozen date patterns, each a
 * {@code SimpleDateFormat} built anew, W3C patterns first even for RFC 822 dates: over half of all
 * parse time. Before Rome reads the document, each entry date java.time can read (RFC 1123, ISO 8601)
 * is replaced by a marker element holding the instant, which Rome keeps as foreign markup and
 * {@link #marked} reads back. Every entry date is read here, by {@link FeedDates}; one it cannot
 * read is removed, so Rome's lenient patterns never roll 31 February over into March or read a
 * Unix time as a year. Feed-level dates, which nothing uses, are removed.
 */
final class DatePrepass {

    private static final Namespace MARK = Namespace.getNamespace("tributary", "urn:x-tributary:parsed-date");
    private static final Namespace DC = Namespace.getNamespace("http://purl.org/dc/elements/1.1/");
    private static final Namespace DCTERMS = Namespace.getNamespace("http://purl.org/dc/terms/");
    private static final Set<String> DCTERMS_DATES = Set.of("issued", "created", "modified");
    // RSS pubDate, Atom 1.0 published/updated, Atom 0.3 issued/modified/created, in the entry's namespace.
    private static final Set<String> ENTRY_DATES = Set.of("pubDate", "published", "updated", "issued", "modified", "created");
    private static final Set<String> FEED_DATES = Set.of("pubDate", "lastBuildDate", "updated", "modified");

    private DatePrepass() {
    }

    static void apply(Document document) {
        Element root = document.getRootElement();
        removeFeedDates(root);
        for (Element child : root.getChildren()) {
            switch (child.getName()) {
                case "channel" -> {
                    removeFeedDates(child);
                    child.getChildren("item", child.getNamespace()).forEach(DatePrepass::markEntryDates);
                }
                case "item", "entry" -> markEntryDates(child);
                default -> {
                }
            }
        }
    }

    /** The instant the prepass took from this entry's element of that local name ({@code pubDate}, {@code date}...), if any. */
    static @Nullable Instant marked(List<Element> foreignMarkup, String name) {
        for (Element element : foreignMarkup) {
            if (MARK.equals(element.getNamespace()) && name.equals(element.getAttributeValue("name"))) {
                // A feed could hold such an element of its own: read it leniently.
                return parse(element.getTextTrim());
            }
        }
        return null;
    }

    private static void removeFeedDates(Element feed) {
        feed.getChildren().removeIf(child -> FEED_DATES.contains(child.getName()) && child.getNamespace().equals(feed.getNamespace())
                || child.getName().equals("date") && child.getNamespace().equals(DC));
    }

    private static void markEntryDates(Element entry) {
        List<Element> dates = new ArrayList<>(2);
        for (Element child : entry.getChildren()) {
            boolean own = ENTRY_DATES.contains(child.getName()) && child.getNamespace().equals(entry.getNamespace());
            boolean dublinCore = child.getName().equals("date") && child.getNamespace().equals(DC)
                    || DCTERMS_DATES.contains(child.getName()) && child.getNamespace().equals(DCTERMS);
            if ((own || dublinCore) && entry.getChild(child.getName(),
                    child.getNamespace()) == child) {
                dates.add(child);
            }
        }
        for (Element date : dates) {
            Instant instant = parse(date.getTextTrim());
            date.detach();
            if (instant != null) {
                entry.addContent(new Element("date", MARK).setAttribute("name", date.getName()).setText(instant.toString()));
            }
        }
    }

    static @Nullable Instant parse(String text) {
        return FeedDates.parse(text);
    }
}
