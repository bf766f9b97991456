package dev.tributary.api.export;

import com.rometools.modules.mediarss.MediaEntryModuleImpl;
import com.rometools.modules.mediarss.types.MediaContent;
import com.rometools.modules.mediarss.types.UrlReference;
import com.rometools.rome.feed.module.Module;
import com.rometools.rome.feed.synd.SyndCategory;
import com.rometools.rome.feed.synd.SyndCategoryImpl;
import com.rometools.rome.feed.synd.SyndContent;
import com.rometools.rome.feed.synd.SyndContentImpl;
import com.rometools.rome.feed.synd.SyndEnclosure;
import com.rometools.rome.feed.synd.SyndEnclosureImpl;
import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndEntryImpl;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.feed.synd.SyndFeedImpl;
import com.rometools.rome.feed.synd.SyndLink;
import com.rometools.rome.feed.synd.SyndLinkImpl;
import com.rometools.rome.io.FeedException;
import com.rometools.rome.io.WireFeedOutput;
import dev.tributary.api.item.SourceRef;
import dev.tributary.api.item.SourceRefs;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.ItemContent;
import dev.tributary.pubsub.ItemContents;
import dev.tributary.pubsub.Media;
import dev.tributary.pubsub.Stored;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdom2.Document;
import org.jdom2.Element;
import org.jdom2.Namespace;
import org.jdom2.output.Format;
import org.jdom2.output.XMLOutputter;
import org.jsoup.Jsoup;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Writes a {@link FeedDocument} as RSS 2.0 or Atom 1.0 with Rome: guid, link, dates, author,
 * the (already sanitised) summary as HTML, the feed's own full content when it gave one, tags as categories, media as enclosures and Media RSS.
 * The same items always give the same bytes, so the ETag is the hash of the bytes.
 */
@Component
class FeedWriter {

    /** An untitled entry (a short post) is titled with the start of its text, as feed readers list titles. */
    private static final int DERIVED_TITLE_LENGTH = 80;
    private static final Namespace ATOM = Namespace.getNamespace("atom", "http://www.w3.org/2005/Atom");

    private final SourceRefs sources;
    private final ItemContents contents;

    FeedWriter(SourceRefs sources, ItemContents contents) {
        this.sources = sources;
        this.contents = contents;
    }

    RenderedFeed write(FeedDocument document, FeedFormat format) {
        Map<Long, SourceRef> refs = sources.of(document.items().stream().map(i -> i.body().sourceId()).distinct().toList());
        SyndFeed feed = feed(document, format);
        Map<Long, ItemContent> full = contents.findAll(document.items().stream().map(Stored::id).toList());
        List<SyndEntry> entries = new ArrayList<>(document.items().size());
        for (Stored<Item> item : document.items()) {
            entries.add(entry(item, refs.get(item.body().sourceId()), document.site(), full.get(item.id())));
        }
        feed.setEntries(entries);
        byte[] body = output(feed, format, XmlText.clean(document.selfUrl()), XmlText.clean(document.hubUrl()))
                .getBytes(StandardCharsets.UTF_8);
        return new RenderedFeed(body, format.contentType(), etag(body), lastModified(document));
    }

    private static SyndFeed feed(FeedDocument document, FeedFormat format) {
        SyndFeed feed = new SyndFeedImpl();
        feed.setFeedType(format.romeType());
        feed.setEncoding("UTF-8");
        feed.setUri(document.id());
        feed.setTitle(XmlText.clean(document.title()));
        feed.setLink(XmlText.clean(document.link()));
        feed.setDescription(XmlText.clean(document.description()));
        feed.setGenerator("Tributary");
        feed.setPublishedDate(Date.from(newest(document)));
        SyndLink self = new SyndLinkImpl();
        self.setRel("self");
        self.setType(format.contentType().getType() + "/" + format.contentType().getSubtype());
        self.setHref(XmlText.clean(document.selfUrl()));
        SyndLink alternate = new SyndLinkImpl();
        alternate.setRel("alternate");
        alternate.setType("text/html");
        alternate.setHref(XmlText.clean(document.link()));
        SyndLink hub = new SyndLinkImpl();
        hub.setRel("hub");
        hub.setHref(XmlText.clean(document.hubUrl()));
        feed.setLinks(List.of(alternate, self, hub));
        return feed;
    }

    private static SyndEntry entry(Stored<Item> entity, @Nullable SourceRef source, String site, @Nullable ItemContent full) {
        Item item = entity.body();
        SyndEntry entry = new SyndEntryImpl();
        entry.setUri(guid(entity.id()));
        entry.setTitle(XmlText.clean(title(item)));
        // A post without a link still has a page a reader can open: the item's page in the web front end.
        entry.setLink(XmlText.clean(item.url() != null && !item.url().isBlank() ? item.url() : site + "items/" + Ids.format(entity.id())));
        entry.setPublishedDate(Date.from(item.publishedAt()));
        entry.setUpdatedDate(Date.from(item.publishedAt()));
        String author = item.author() != null && !item.author().isBlank() ? item.author() : source == null ? null : source.title();
        if (author != null) {
            entry.setAuthor(XmlText.clean(author));
        }
        if (item.summary() != null && !item.summary().isBlank()) {
            SyndContent summary = new SyndContentImpl();
            summary.setType("html");
            summary.setValue(XmlText.clean(item.summary()));
            entry.setDescription(summary);
        }
        if (full != null) {
            // The feed's own full content: content:encoded in RSS, content in Atom, as the source feed had it.
            SyndContent content = new SyndContentImpl();
            content.setType("html");
            content.setValue(XmlText.clean(full.html()));
            entry.setContents(List.of(content));
        }
        entry.setCategories(item.tags().stream().map(FeedWriter::category).toList());
        entry.setEnclosures(item.media().stream().map(FeedWriter::enclosure).toList());
        if (!item.media().isEmpty()) {
            List<Module> modules = new ArrayList<>(entry.getModules());
            mediaRss(item.media()).ifPresent(modules::add);
            entry.setModules(modules);
        }
        return entry;
    }

    /**
     * One item as the Atom export writes it: the same {@code <entry>} (same id, links, content,
     * categories, media), standalone with its namespaces declared, for an XMPP payload.
     */
    String atomEntry(Stored<Item> item, String site) {
        SourceRef source = sources.of(List.of(item.body().sourceId())).get(item.body().sourceId());
        SyndFeed feed = new SyndFeedImpl();
        feed.setFeedType(FeedFormat.ATOM.romeType());
        feed.setEncoding("UTF-8");
        feed.setUri(guid(item.id()));
        feed.setTitle("entry");
        feed.setPublishedDate(Date.from(item.body().publishedAt()));
        feed.setEntries(List.of(entry(item, source, site, contents.findAll(List.of(item.id())).get(item.id()))));
        try {
            Element entry = new WireFeedOutput().outputJDom(feed.createWireFeed()).getRootElement()
                    .getChild("entry", Namespace.getNamespace("http://www.w3.org/2005/Atom")).detach();
            Format compact = Format.getCompactFormat();
            compact.setEncoding(StandardCharsets.UTF_8.name());
            compact.setOmitDeclaration(true);
            return new XMLOutputter(compact).outputString(entry);
        } catch (FeedException e) {
            throw new IllegalStateException("could not write the entry of item " + item.id(), e);
        }
    }

    /** Stable for the item's life and unique across sources and deployments' exports of it. */
    static String guid(long itemId) {
        return "urn:tributary:item:" + Ids.format(itemId);
    }

    private static String title(Item item) {
        if (item.title() != null && !item.title().isBlank()) {
            return item.title();
        }
        if (item.summary() == null) {
            return "";
        }
        String text = Jsoup.parse(item.summary()).text().strip();
        return text.length() <= DERIVED_TITLE_LENGTH ? text
                : text.substring(0, text.offsetByCodePoints(0, Math.min(DERIVED_TITLE_LENGTH, text.codePointCount(0, text.length()))))
                        .strip() + "…";
    }

    private static SyndCategory category(String tag) {
        SyndCategory category = new SyndCategoryImpl();
        category.setName(XmlText.clean(tag));
        return category;
    }

    private static SyndEnclosure enclosure(Media media) {
        SyndEnclosure enclosure = new SyndEnclosureImpl();
        enclosure.setUrl(XmlText.clean(media.url()));
        enclosure.setType(media.type() == null ? "application/octet-stream" : XmlText.clean(media.type()));
        enclosure.setLength(media.length() == null ? 0 : media.length());
        return enclosure;
    }

    /** Media RSS keeps the sizes enclosures cannot carry; a url Media RSS cannot hold is left to the enclosure. */
    private static Optional<Module> mediaRss(List<Media> media) {
        List<MediaContent> contents = new ArrayList<>();
        for (Media m : media) {
            try {
                MediaContent content = new MediaContent(new UrlReference(XmlText.clean(m.url())));
                content.setType(XmlText.clean(m.type()));
                content.setWidth(m.width());
                content.setHeight(m.height());
                content.setFileSize(m.length());
                contents.add(content);
            } catch (URISyntaxException | IllegalArgumentException notAUri) {
                // the enclosure still carries it
            }
        }
        if (contents.isEmpty()) {
            return Optional.empty();
        }
        MediaEntryModuleImpl module = new MediaEntryModuleImpl();
        module.setMediaContents(contents.toArray(MediaContent[]::new));
        return Optional.of(module);
    }

    /**
     * Rome writes Atom's self and hub links but has no place for them in RSS: RSS gets the {@code atom:link
     * rel="self"} that feed validators ask for, and WebSub's {@code atom:link rel="hub"}, added to its channel.
     */
    private static String output(SyndFeed feed, FeedFormat format, String selfUrl, String hubUrl) {
        try {
            Document document = new WireFeedOutput().outputJDom(feed.createWireFeed());
            if (format == FeedFormat.RSS) {
                document.getRootElement().addNamespaceDeclaration(ATOM);
                Element channel = document.getRootElement().getChild("channel");
                channel.addContent(0, new Element("link", ATOM).setAttribute("href", selfUrl).setAttribute("rel", "self")
                        .setAttribute("type", format.contentType().getType() + "/" + format.contentType().getSubtype()));
                channel.addContent(1, new Element("link", ATOM).setAttribute("href", hubUrl).setAttribute("rel", "hub"));
            }
            Format compact = Format.getCompactFormat();
            compact.setEncoding(StandardCharsets.UTF_8.name());
            return new XMLOutputter(compact).outputString(document);
        } catch (FeedException e) {
            throw new IllegalStateException("could not write feed " + feed.getUri(), e);
        }
    }

    private static Instant newest(FeedDocument document) {
        return document.items().stream().map(i -> i.body().publishedAt()).max(Instant::compareTo).orElse(document.since());
    }

    /** The latest write among the items (an in-place update counts), else the owner's start. */
    private static Instant lastModified(FeedDocument document) {
        return document.items().stream().map(Stored::updated).max(Instant::compareTo).orElse(document.since());
    }

    private static String etag(byte[] body) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(body);
            return "\"" + HexFormat.of().formatHex(hash, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
