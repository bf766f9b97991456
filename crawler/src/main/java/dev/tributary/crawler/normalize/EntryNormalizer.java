package dev.tributary.crawler.normalize;

import dev.tributary.crawler.normalize.HtmlSummary.Summary;
import dev.tributary.crawler.parse.LinkResolver;
import dev.tributary.crawler.parse.ParsedFeed;
import dev.tributary.crawler.parse.ParsedFeed.Entry;
import dev.tributary.pubsub.NewItem;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Turns a parsed feed into items: identity, absolute urls, sanitised summary and full content, media type, tags,
 * dates. Pure.
 *
 * <p>Entries sharing a guid collapse into the first in document order (feeds list the newest first,
 * so a later duplicate is the stale copy). Thread-safe; build one per summary length and share it.
 */
public final class EntryNormalizer {

    static final int MAX_TITLE_LENGTH = 1000;
    static final int MAX_AUTHOR_LENGTH = 200;
    static final int MAX_TAGS = 20;
    static final int MAX_TAG_LENGTH = 100;
    /** Beyond this many entries only the newest are kept: a feed is a window, not an archive to republish. */
    static final int MAX_ITEMS = 2000;
    /** No feed item is older than the web's feeds: an earlier date is a misread one (issue 45's date rule). */
    static final Instant EARLIEST = Instant.parse("1990-01-01T00:00:00Z");

    // RSS authors are e-mail addresses, often with the name beside: "jo@example.com (Jo Bloggs)",
    // "Jo Bloggs (jo@example.com)", "Jo Bloggs <jo@example.com>".
    private static final Pattern EMAIL_WITH_NAME = Pattern.compile("^\\S+@\\S+\\s*\\((.+)\\)$");
    private static final Pattern NAME_WITH_EMAIL = Pattern.compile("^(.+?)\\s*[(<]\\s*(?:mailto:)?\\S+@\\S+?\\s*[)>]$");

    private final HtmlSummary summaries;
    private final FullContent contents = new FullContent();

    /** @param maxSummaryLength the most characters of text a summary keeps (an ellipsis marks a cut) */
    public EntryNormalizer(int maxSummaryLength) {
        if (maxSummaryLength < 1) {
            throw new IllegalArgumentException("maxSummaryLength must be positive, was " + maxSummaryLength);
        }
        this.summaries = new HtmlSummary(maxSummaryLength);
    }

    public FeedDocument normalize(ParsedFeed feed, Instant fetchedAt) {
        Objects.requireNonNull(fetchedAt, "fetchedAt");
        Map<String, NewItem> items = new LinkedHashMap<>();
        for (Entry entry : feed.entries()) {
            NewItem item = item(entry, feed, fetchedAt);
            if (item != null) {
                items.putIfAbsent(item.guid(), item);
            }
        }
        URI site = LinkResolver.resolveHttp(feed.base(), feed.siteUrl());
        return new FeedDocument(PlainText.of(feed.title(), MAX_TITLE_LENGTH), site == null ? null : site.toString(),
                LinkResolver.resolveHttp(feed.base(), feed.hub()), LinkResolver.resolveHttp(feed.base(), feed.self()),
                feed.ttl(), newest(new ArrayList<>(items.values())));
    }

    private @Nullable NewItem item(Entry entry, ParsedFeed feed, Instant fetchedAt) {
        URI link = LinkResolver.resolveHttp(entry.base(), entry.link());
        String url = link == null ? null : link.toString();
        String guid = Identity.guid(entry, url);
        if (guid == null) {
            return null;
        }
        Summary summary = summary(entry);
        FullContent.Kept content = contents.sanitise(entry.content(), entry.base());
        // The whole post, where the feed gave it, says more of what the post is than its excerpt.
        int textLength = content.content() == null ? summary.textLength() : content.textLength();
        MediaSelection media = MediaSelection.of(entry.media(), entry.base()).orContent(content.images(), content.videos(), content.audios());
        return new NewItem(guid, PlainText.of(entry.title(), MAX_TITLE_LENGTH), summary.html(), url,
                author(entry.author() != null ? entry.author() : feed.author()),
                media.type(textLength, url != null), media.media(), tags(entry.categories()),
                publishedAt(entry, fetchedAt), content.content());
    }

    /** The summary's, else (when it is missing or shows nothing) the content's sanitised HTML. */
    private Summary summary(Entry entry) {
        Summary summary = entry.summary() == null ? Summary.NONE : summaries.sanitise(entry.summary(), entry.base());
        if (summary.html() == null && entry.content() != null) {
            return summaries.sanitise(entry.content(), entry.base());
        }
        return summary;
    }

    /**
     * Published, else updated, else the fetch. A date before {@link #EARLIEST} or after the fetch
     * is not believed (a Unix time read as a year, a future date that would pin the item on top):
     * the fetch time stands in for it, so every API and export shows the same sane instant.
     */
    static Instant publishedAt(Entry entry, Instant fetchedAt) {
        for (Instant date : new Instant[] {entry.published(), entry.updated()}) {
            if (date != null && !date.isBefore(EARLIEST) && !date.isAfter(fetchedAt)) {
                return date;
            }
        }
        return fetchedAt;
    }

    static @Nullable String author(@Nullable String raw) {
        String author = PlainText.of(raw, true, MAX_AUTHOR_LENGTH);
        if (author == null) {
            return null;
        }
        Matcher withName = EMAIL_WITH_NAME.matcher(author);
        if (withName.matches()) {
            return withName.group(1).strip();
        }
        Matcher nameFirst = NAME_WITH_EMAIL.matcher(author);
        return nameFirst.matches() ? nameFirst.group(1).strip() : author;
    }

    /** Trimmed, first spelling kept of those equal ignoring case, at most {@link #MAX_TAGS} of {@link #MAX_TAG_LENGTH} characters. */
    static List<String> tags(List<String> categories) {
        List<String> tags = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String category : categories) {
            String tag = PlainText.of(category, false, MAX_TAG_LENGTH);
            if (tag != null && seen.add(tag.toLowerCase(Locale.ROOT))) {
                tags.add(tag);
                if (tags.size() == MAX_TAGS) {
                    break;
                }
            }
        }
        return tags;
    }

    /** The items, or the newest {@link #MAX_ITEMS} of them in their document order. */
    private static List<NewItem> newest(List<NewItem> items) {
        if (items.size() <= MAX_ITEMS) {
            return items;
        }
        List<NewItem> byDate = new ArrayList<>(items);
        byDate.sort(Comparator.comparing(NewItem::publishedAt).reversed());
        Set<NewItem> kept = Collections.newSetFromMap(new IdentityHashMap<>());
        kept.addAll(byDate.subList(0, MAX_ITEMS));
        items.removeIf(item -> !kept.contains(item));
        return items;
    }
}
