package dev.tributary.crawler.parse;

import com.rometools.modules.atom.modules.AtomLinkModule;
import com.rometools.modules.mediarss.MediaModule;
import com.rometools.rome.feed.module.DCModule;
import com.rometools.rome.feed.module.DCSubject;
import com.rometools.rome.feed.rss.Category;
import com.rometools.rome.feed.rss.Channel;
import com.rometools.rome.feed.rss.Enclosure;
import com.rometools.rome.feed.rss.Guid;
import com.rometools.rome.feed.rss.Item;
import com.rometools.rome.feed.atom.Link;
import com.rometools.rome.feed.module.Module;
import dev.tributary.crawler.parse.ParsedFeed.Entry;
import dev.tributary.crawler.parse.ParsedFeed.Media;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jdom2.Element;
import org.jdom2.Namespace;
import org.jspecify.annotations.Nullable;

/** RSS 0.9x, 1.0 (RDF) and 2.0, as Rome's {@link Channel} holds them, to a {@link ParsedFeed}. */
final class RssMapping {

    private static final Namespace ATOM = Namespace.getNamespace(AtomLinkModule.URI);
    // A TTL beyond a year is a mistake, not an instruction.
    private static final int MAX_TTL_MINUTES = 365 * 24 * 60;

    private RssMapping() {
    }

    static ParsedFeed map(Channel channel, URI feedUrl) {
        // xml:base on <rss>, <channel> or <item> (feedparser honours it; Rome does not read it).
        URI channelBase = XmlBases.marked(channel.getForeignMarkup());
        URI base = channelBase != null ? channelBase : feedUrl;
        List<Entry> entries = new ArrayList<>(channel.getItems().size());
        for (Item item : channel.getItems()) {
            URI itemBase = XmlBases.marked(item.getForeignMarkup());
            entries.add(entry(item, itemBase != null ? itemBase : base));
        }
        int ttl = channel.getTtl();
        return new ParsedFeed(ParsedFeed.Format.RSS, base, Text.of(channel.getTitle(), false), channel.getLink(),
                atomLink(channel, "hub"), atomLink(channel, "self"),
                ttl > 0 && ttl <= MAX_TTL_MINUTES ? Duration.ofMinutes(ttl) : null, null, entries);
    }

    private static Entry entry(Item item, URI base) {
        DCModule dc = item.getModule(DCModule.URI) instanceof DCModule module ? module : null;
        Module media = item.getModule(MediaModule.URI);
        Guid guid = item.getGuid();
        String id = guid != null ? guid.getValue() : item.getUri();
        Text summary = item.getDescription() == null ? null : Text.of(item.getDescription().getValue(), true);
        Text content = item.getContent() == null ? null : Text.of(item.getContent().getValue(), true);
        if (summary == null && content == null) {
            summary = MediaRss.description(media);
        }
        // An RSS title is text that may be HTML: the normaliser reads it as HTML only when it looks like
        // HTML (as feedparser does), so "List<String>" in a title is not a tag to drop.
        Text title = Text.of(item.getTitle(), false);
        return new Entry(id, link(item, guid), title != null ? title : MediaRss.title(media), summary, content,
                item.getAuthor() != null ? item.getAuthor() : dc == null ? null : dc.getCreator(),
                published(item, dc), null,
                categories(item, dc), media(item, media), base);
    }

    /** pubDate, else dc:date, else dcterms:issued, created or modified; each as the date prepass read it, else as Rome did. */
    private static @Nullable Instant published(Item item, @Nullable DCModule dc) {
        Instant pubDate = DatePrepass.marked(item.getForeignMarkup(), "pubDate");
        if (pubDate != null || item.getPubDate() != null) {
            return pubDate != null ? pubDate : item.getPubDate().toInstant();
        }
        Instant dcDate = DatePrepass.marked(item.getForeignMarkup(), "date");
        if (dcDate != null || dc != null && dc.getDate() != null) {
            return dcDate != null ? dcDate : Dates.instant(dc.getDate());
        }
        for (String dcterm : new String[] {"issued", "created", "modified"}) {
            Instant date = DatePrepass.marked(item.getForeignMarkup(), dcterm);
            if (date != null) {
                return date;
            }
        }
        return null;
    }

    /** Its link; failing that a permalink guid, as RSS 2.0 intends, when it is an absolute web url. */
    private static @Nullable String link(Item item, @Nullable Guid guid) {
        if (item.getLink() != null && !item.getLink().isBlank()) {
            return item.getLink();
        }
        if (guid != null && guid.isPermaLink() && guid.getValue() != null) {
            String value = guid.getValue().strip();
            return value.startsWith("http://") || value.startsWith("https://") ? value : null;
        }
        return null;
    }

    private static List<String> categories(Item item, @Nullable DCModule dc) {
        List<String> categories = new ArrayList<>();
        for (Category category : item.getCategories()) {
            if (category.getValue() != null) {
                categories.add(category.getValue());
            }
        }
        if (dc != null) {
            for (DCSubject subject : dc.getSubjects()) {
                if (subject.getValue() != null) {
                    categories.add(subject.getValue());
                }
            }
        }
        return categories;
    }

    private static List<Media> media(Item item, @Nullable Module mediaRss) {
        List<Media> media = new ArrayList<>();
        for (Enclosure enclosure : item.getEnclosures()) {
            if (enclosure.getUrl() != null) {
                media.add(new Media(enclosure.getUrl(), enclosure.getType(), null, null, null,
                        enclosure.getLength() > 0 ? enclosure.getLength() : null, false));
            }
        }
        MediaRss.addMedia(mediaRss, media);
        return media;
    }

    /**
     * The href of the channel's {@code atom:link} with this rel: Rome's Atom module reads them in
     * RSS 2.0; in other RSS versions they stay foreign markup.
     */
    private static @Nullable String atomLink(Channel channel, String rel) {
        if (channel.getModule(AtomLinkModule.URI) instanceof AtomLinkModule module) {
            for (Link link : module.getLinks()) {
                if (rel.equalsIgnoreCase(link.getRel()) && link.getHref() != null) {
                    return link.getHref();
                }
            }
        }
        for (Element element : channel.getForeignMarkup()) {
            if ("link".equals(element.getName()) && ATOM.equals(element.getNamespace())
                    && rel.equalsIgnoreCase(element.getAttributeValue("rel")) && element.getAttributeValue("href") != null) {
                return element.getAttributeValue("href");
            }
        }
        return null;
    }
}
