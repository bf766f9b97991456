package dev.tributary.crawler.parse;

import com.rometools.modules.mediarss.MediaModule;
import com.rometools.rome.feed.atom.Category;
import com.rometools.rome.feed.atom.Content;
import com.rometools.rome.feed.atom.Entry;
import com.rometools.rome.feed.atom.Feed;
import com.rometools.rome.feed.atom.Link;
import com.rometools.rome.feed.module.Module;
import com.rometools.rome.feed.synd.SyndPerson;
import dev.tributary.crawler.parse.ParsedFeed.Media;
import dev.tributary.crawler.parse.ParsedFeed.Text;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jdom2.Element;
import org.jspecify.annotations.Nullable;

/** Atom 0.3 and 1.0, as Rome's {@link Feed} holds them, to a {@link ParsedFeed}; {@code xml:base} at feed and entry level. */
final class AtomMapping {

    private AtomMapping() {
    }

    static ParsedFeed map(Feed feed, URI feedUrl) {
        URI base = LinkResolver.base(feedUrl, feed.getXmlBase());
        List<ParsedFeed.Entry> entries = new ArrayList<>(feed.getEntries().size());
        for (Entry entry : feed.getEntries()) {
            entries.add(entry(entry, LinkResolver.base(base, entry.getXmlBase())));
        }
        return new ParsedFeed(ParsedFeed.Format.ATOM, base, title(feed.getTitleEx(), feed.getTitle()),
                alternate(feed.getAlternateLinks()), other(feed.getOtherLinks(), "hub"), other(feed.getOtherLinks(), "self"),
                null, name(feed.getAuthors()), entries);
    }

    private static ParsedFeed.Entry entry(Entry entry, URI base) {
        Module media = entry.getModule(MediaModule.URI);
        Text summary = text(entry.getSummary());
        Text content = entry.getContents().isEmpty() ? null : text(entry.getContents().get(0));
        if (summary == null && content == null) {
            summary = MediaRss.description(media);
        }
        Text title = title(entry.getTitleEx(), entry.getTitle());
        return new ParsedFeed.Entry(entry.getId(), alternate(entry.getAlternateLinks()),
                title != null ? title : MediaRss.title(media), summary, content, name(entry.getAuthors()),
                published(entry), updated(entry), categories(entry.getCategories()), media(entry, media), base);
    }

    /** Atom 1.0 published, Atom 0.3 issued, else created; each as the date prepass read it, else as Rome did. */
    private static @Nullable Instant published(Entry entry) {
        List<Element> marks = entry.getForeignMarkup();
        Instant published = first(DatePrepass.marked(marks, "published"), DatePrepass.marked(marks, "issued"),
                Dates.instant(entry.getPublished()));
        return published != null ? published : first(DatePrepass.marked(marks, "created"), Dates.instant(entry.getCreated()), null);
    }

    /** Atom 1.0 updated, Atom 0.3 modified. */
    private static @Nullable Instant updated(Entry entry) {
        List<Element> marks = entry.getForeignMarkup();
        return first(DatePrepass.marked(marks, "updated"), DatePrepass.marked(marks, "modified"), Dates.instant(entry.getUpdated()));
    }

    private static @Nullable Instant first(@Nullable Instant a, @Nullable Instant b, @Nullable Instant c) {
        return a != null ? a : b != null ? b : c;
    }

    private static @Nullable Text title(@Nullable Content titleEx, @Nullable String title) {
        return titleEx != null ? text(titleEx) : Text.of(title, false);
    }

    /**
     * A text construct: Atom 1.0 says {@code text}, {@code html} or {@code xhtml} (Rome hands xhtml
     * over serialised); Atom 0.3 says a MIME type. Other media types (base64 images...) are no text.
     */
    static @Nullable Text text(@Nullable Content content) {
        if (content == null || content.getValue() == null) {
            return null;
        }
        // No type, or an empty one (type=""), is text, as Atom's default and feedparser have it.
        String type = content.getType() == null || content.getType().isBlank() ? "text" : content.getType().strip().toLowerCase(Locale.ROOT);
        if (type.equals("html") || type.equals("xhtml") || type.contains("html")) {
            return Text.of(content.getValue(), true);
        }
        return type.equals("text") || type.startsWith("text/") ? Text.of(content.getValue(), false) : null;
    }

    /** The alternate link to a web page: the first typed HTML or untyped, else the first. */
    private static @Nullable String alternate(List<Link> links) {
        for (Link link : links) {
            String type = link.getType() == null ? "" : link.getType().toLowerCase(Locale.ROOT);
            if (link.getHref() != null && (type.isEmpty() || type.contains("html"))) {
                return link.getHref();
            }
        }
        return links.isEmpty() ? null : links.get(0).getHref();
    }

    private static @Nullable String other(List<Link> links, String rel) {
        for (Link link : links) {
            if (rel.equalsIgnoreCase(link.getRel()) && link.getHref() != null) {
                return link.getHref();
            }
        }
        return null;
    }

    private static @Nullable String name(List<SyndPerson> people) {
        for (SyndPerson person : people) {
            if (person.getName() != null && !person.getName().isBlank()) {
                return person.getName();
            }
        }
        return null;
    }

    /**
     * Category terms, else labels: the term is the tag (what other entries share and clients filter
     * on); the label is only its display form, and may differ per feed or language.
     */
    private static List<String> categories(List<Category> categories) {
        List<String> names = new ArrayList<>(categories.size());
        for (Category category : categories) {
            String name = category.getTerm() != null && !category.getTerm().isBlank() ? category.getTerm() : category.getLabel();
            if (name != null) {
                names.add(name);
            }
        }
        return names;
    }

    private static List<Media> media(Entry entry, @Nullable Module mediaRss) {
        List<Media> media = new ArrayList<>();
        for (Link link : entry.getOtherLinks()) {
            if ("enclosure".equalsIgnoreCase(link.getRel()) && link.getHref() != null) {
                media.add(new Media(link.getHref(), link.getType(), null, null, null,
                        link.getLength() > 0 ? link.getLength() : null, false));
            }
        }
        for (Content content : entry.getContents()) {
            // Out-of-line content of a media type is what the entry carries (a video entry), not text.
            String type = content.getType() == null ? "" : content.getType().toLowerCase(Locale.ROOT);
            if (content.getSrc() != null && (type.startsWith("video/") || type.startsWith("audio/") || type.startsWith("image/"))) {
                media.add(new Media(content.getSrc(), content.getType(), null, null, null, null, false));
            }
        }
        MediaRss.addMedia(mediaRss, media);
        return media;
    }
}
