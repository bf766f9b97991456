package dev.tributary.api.greader;

import dev.tributary.api.greader.ReaderFeeds.FeedRef;
import dev.tributary.api.web.Caller;
import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.ItemContent;
import dev.tributary.pubsub.ItemContents;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Media;
import dev.tributary.pubsub.Stars;
import dev.tributary.pubsub.Stored;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Google Reader's Atom output, {@code GET /reader/atom/<stream id>}: what newsboat's {@code feedhq}
 * source (newsboat up to 2.23, the version Debian 12 ships) and older Google Reader clients read.
 * The same stream, paging ({@code n}, {@code c}) and filters ({@code xt}, {@code it}, {@code ot},
 * {@code nt}, {@code r}) as {@code stream/contents}; Atom 1.0 with Google's {@code gr:} attributes:
 * each entry's long id (with the feed's own guid as {@code gr:original-id}), its storage time as
 * {@code gr:crawl-timestamp-msec}, its feed as {@code <source gr:stream-id>}, its states and labels
 * as categories in Google's scheme (newsboat reads {@code read} and {@code fresh} from their labels
 * to set an entry's read state), and the next page's continuation as {@code <gr:continuation>}.
 */
@RestController
class ReaderAtomController {

    static final String ATOM_PATH = "/reader/atom/";
    private static final String ATOM = "http://www.w3.org/2005/Atom";
    private static final String GR = "http://www.google.com/schemas/reader/atom/";
    private static final String SCHEME = "http://www.google.com/reader/";
    private static final String TAG = "tag:google.com,2005:reader/";
    private static final MediaType ATOM_XML = MediaType.parseMediaType("application/atom+xml;charset=UTF-8");
    private static final XMLOutputFactory XML = XMLOutputFactory.newFactory();

    private final ReaderStreams streams;
    private final ReaderFeeds feeds;
    private final HomeFeed home;
    private final Stars stars;
    private final Items items;
    private final Folders folders;
    private final ItemContents contents;

    ReaderAtomController(ReaderStreams streams, ReaderFeeds feeds, HomeFeed home, Stars stars, Items items, Folders folders,
            ItemContents contents) {
        this.contents = contents;
        this.streams = streams;
        this.feeds = feeds;
        this.home = home;
        this.stars = stars;
        this.items = items;
        this.folders = folders;
    }

    /** The stream named in the path (else by {@code s}, else the reading list). */
    @GetMapping({"/reader/atom", "/reader/atom/**"})
    ResponseEntity<byte[]> atom(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam MultiValueMap<String, String> params, HttpServletRequest request) {
        StreamQuery query = StreamQuery.parse(ReaderStreamController.pathStream(request, ATOM_PATH), params, 20,
                ReaderStreamController.MAX_CONTENTS);
        long user = caller.userId();
        ReaderStreams.Page page = streams.ids(user, query);
        String streamId = ReaderStreamController.streamName(query.stream(), params);
        try {
            return ResponseEntity.ok().contentType(ATOM_XML).body(render(user, query.stream(), streamId, page));
        } catch (XMLStreamException cannotHappen) {
            throw new IllegalStateException("writing Atom into memory failed", cannotHappen);
        }
    }

    private byte[] render(long user, StreamId stream, String streamId, ReaderStreams.Page page) throws XMLStreamException {
        List<Stored<Item>> loaded = page.ids().isEmpty() ? List.of()
                : items.getAll(page.ids()).stream().filter(item -> !item.body().deleted()).toList();
        Map<Long, Boolean> read = page.ids().isEmpty() ? Map.of() : home.readStates(user, page.ids());
        Set<Long> starred = page.ids().isEmpty() ? Set.of() : stars.starredAmong(user, page.ids());
        Map<Long, FeedRef> origins = feeds.describe(loaded.stream().map(item -> item.body().sourceId()).distinct().toList());
        Map<Long, List<Folder>> filed = folders.foldersBySource(user);
        Map<Long, Stored<Item>> byId = new HashMap<>();
        loaded.forEach(item -> byId.put(item.id(), item));
        Map<Long, ItemContent> full = contents.findAll(byId.keySet());

        ByteArrayOutputStream out = new ByteArrayOutputStream(1000 + page.ids().size() * 1500);
        XMLStreamWriter xml = XML.createXMLStreamWriter(out, "UTF-8");
        xml.writeStartDocument("UTF-8", "1.0");
        xml.setDefaultNamespace(ATOM);
        xml.setPrefix("gr", GR);
        xml.writeStartElement(ATOM, "feed");
        xml.writeDefaultNamespace(ATOM);
        xml.writeNamespace("gr", GR);
        text(xml, "generator", "Tributary");
        text(xml, "id", TAG + streamId);
        text(xml, "title", title(stream, streamId));
        if (page.continuation() != null) {
            xml.writeStartElement(GR, "continuation");
            xml.writeCharacters(page.continuation());
            xml.writeEndElement();
        }
        xml.writeEmptyElement(ATOM, "link");
        xml.writeAttribute("rel", "self");
        xml.writeAttribute("href", feeds.base() + ATOM_PATH + streamId);
        text(xml, "updated", time(Instant.now()));
        for (Long id : page.ids()) {
            Stored<Item> item = byId.get(id);
            Boolean isRead = read.get(id);
            // As in stream/contents: entries of the inbox, and starred items that left it (as read).
            if (item == null || (isRead == null && !starred.contains(id))) {
                continue;
            }
            entry(xml, item, isRead == null || isRead, starred.contains(id), origins.get(item.body().sourceId()),
                    filed.getOrDefault(item.body().sourceId(), List.of()), full.get(id));
        }
        xml.writeEndElement();
        xml.writeEndDocument();
        xml.close();
        return out.toByteArray();
    }

    private void entry(XMLStreamWriter xml, Stored<Item> stored, boolean read, boolean starred, @Nullable FeedRef origin,
            List<Folder> labels, @Nullable ItemContent content) throws XMLStreamException {
        Item item = stored.body();
        xml.writeStartElement(ATOM, "entry");
        xml.writeAttribute("gr", GR, "crawl-timestamp-msec", Long.toString(item.receivedAt().toEpochMilli()));
        xml.writeStartElement(ATOM, "id");
        xml.writeAttribute("gr", GR, "original-id", item.guid());
        xml.writeCharacters(ItemIds.longForm(stored.id()));
        xml.writeEndElement();
        category(xml, StreamId.READING_LIST, "reading-list");
        // newsboat sets an entry read on "read" and unread on "fresh" (src/rssparser.cpp), whatever it held before.
        category(xml, read ? StreamId.READ : "user/-/state/com.google/fresh", read ? "read" : "fresh");
        if (starred) {
            category(xml, StreamId.STARRED, "starred");
        }
        for (Folder label : labels) {
            category(xml, StreamId.label(label.name()), label.name());
        }
        xml.writeStartElement(ATOM, "title");
        xml.writeAttribute("type", "html");
        xml.writeCharacters(xmlSafe(item.title() == null ? "" : item.title()));
        xml.writeEndElement();
        text(xml, "published", time(item.publishedAt()));
        text(xml, "updated", time(stored.updated()));
        xml.writeEmptyElement(ATOM, "link");
        xml.writeAttribute("rel", "alternate");
        xml.writeAttribute("href", item.url() != null ? item.url() : feeds.itemPage(stored.id()));
        xml.writeAttribute("type", "text/html");
        for (Media media : item.media()) {
            xml.writeEmptyElement(ATOM, "link");
            xml.writeAttribute("rel", "enclosure");
            xml.writeAttribute("href", media.url());
            if (media.type() != null) {
                xml.writeAttribute("type", media.type());
            }
            if (media.length() != null) {
                xml.writeAttribute("length", Long.toString(media.length()));
            }
        }
        xml.writeStartElement(ATOM, "summary");
        xml.writeAttribute("type", "html");
        xml.writeCharacters(xmlSafe(item.summary() == null ? "" : item.summary()));
        xml.writeEndElement();
        if (content != null) {
            // The feed's own full content: newsboat shows an entry's content in preference to its summary.
            xml.writeStartElement(ATOM, "content");
            xml.writeAttribute("type", "html");
            xml.writeCharacters(xmlSafe(content.html()));
            xml.writeEndElement();
        }
        xml.writeStartElement(ATOM, "author");
        text(xml, "name", item.author() == null || item.author().isBlank() ? "(author unknown)" : item.author());
        xml.writeEndElement();
        if (origin != null) {
            xml.writeStartElement(ATOM, "source");
            xml.writeAttribute("gr", GR, "stream-id", origin.streamId());
            text(xml, "id", TAG + origin.streamId());
            text(xml, "title", origin.title());
            xml.writeEmptyElement(ATOM, "link");
            xml.writeAttribute("rel", "alternate");
            xml.writeAttribute("href", origin.htmlUrl());
            xml.writeAttribute("type", "text/html");
            xml.writeEndElement();
        }
        xml.writeEndElement();
    }

    private String title(StreamId stream, String streamId) {
        return switch (stream) {
            case StreamId.Feed feed -> feeds.sourceOf(feed.url()).map(source -> feeds.describe(List.of(source.id())))
                    .map(described -> described.values().stream().findFirst().map(FeedRef::title).orElse(feed.url()))
                    .orElse(feed.url());
            case StreamId.Label label -> label.name();
            default -> streamId;
        };
    }

    private static void category(XMLStreamWriter xml, String term, String label) throws XMLStreamException {
        xml.writeEmptyElement(ATOM, "category");
        xml.writeAttribute("term", term);
        xml.writeAttribute("scheme", SCHEME);
        xml.writeAttribute("label", label);
    }

    private static void text(XMLStreamWriter xml, String name, String value) throws XMLStreamException {
        xml.writeStartElement(ATOM, name);
        xml.writeCharacters(xmlSafe(value));
        xml.writeEndElement();
    }

    /**
     * The text without the characters XML 1.0 cannot carry at all (control characters a feed may
     * hold): the writer would put them out as they are, and the parser refuse the whole page.
     */
    static String xmlSafe(String text) {
        StringBuilder safe = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean allowed = c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c <= 0xD7FF) || Character.isSurrogate(c)
                    || (c >= 0xE000 && c <= 0xFFFD);
            if (!allowed && safe == null) {
                safe = new StringBuilder(text.length()).append(text, 0, i);
            } else if (allowed && safe != null) {
                safe.append(c);
            }
        }
        return safe == null ? text : safe.toString();
    }

    private static String time(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }
}
