package dev.tributary.api.greader;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.api.greader.ReaderFeeds.FeedRef;
import dev.tributary.crawler.Article;
import dev.tributary.crawler.FullArticles;
import dev.tributary.pubsub.Folder;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.ItemContent;
import dev.tributary.pubsub.ItemContents;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Media;
import dev.tributary.pubsub.RedisFailures;
import dev.tributary.pubsub.Stars;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.TimelineStamps;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Items as Google Reader apps read them: the long id, times in the units each field has
 * ({@code published} in seconds, {@code crawlTimeMsec} in milliseconds, {@code timestampUsec} in
 * microseconds, the last two as strings), links, the summary, the full article as
 * {@code content} when one is kept for the item (a reader opened it, or its source is read in
 * full), the origin feed, and categories (reading list, read, starred, the folders of its source,
 * its own tags).
 *
 * <p>What is the same for every reader of an item is rendered once per node and kept while the
 * item's stamp holds (as the home timeline's page cache keeps items: an edit or a tombstone moves
 * it), and a person's labels and their items' read and starred flags while their stamp holds
 * (read marks, stars, filing and renaming folders move it), each for at most a minute, the
 * staleness source names have anyway. Without Redis, everything is read and rendered afresh.
 */
@Component
class ReaderItems {

    private static final Logger log = LoggerFactory.getLogger(ReaderItems.class);
    private static final Duration TTL = Duration.ofMinutes(1);
    private static final long CACHE_BYTES = 64L << 20;

    /** An item's JSON up to (not including) its categories, and the stamps it was rendered under. */
    private record Rendered(@Nullable String epoch, @Nullable String stamp, byte[] head, long sourceId, byte[] tags) {
    }

    /** Per source, its folders as label ids already in JSON (UTF-8), each after a comma. */
    private record Labels(@Nullable String epoch, @Nullable String stamp, Map<Long, byte[]> bySource) {
    }

    /** A person's flags of items apps asked about: {@link #HELD}, {@link #READ}, {@link #STARRED} bits; 0 is not theirs. */
    private record Flags(@Nullable String epoch, @Nullable String stamp, Map<Long, Integer> byItem) {
    }

    private static final byte[] CATEGORIES = (",\"categories\":[\"" + StreamId.READING_LIST + "\"").getBytes(UTF_8);
    private static final byte[] READ_JSON = (",\"" + StreamId.READ + "\"").getBytes(UTF_8);
    private static final byte[] STARRED_JSON = (",\"" + StreamId.STARRED + "\"").getBytes(UTF_8);
    private static final byte[] END = "]}".getBytes(UTF_8);
    private static final byte[] NONE = new byte[0];
    private static final int HELD = 1;
    private static final int READ = 2;
    private static final int STARRED = 4;
    /** Most items whose flags are kept per person; past it only the latest call's are. */
    private static final int MAX_FLAGS = 5_000;

    private record Key(long itemId, String base) {
    }

    private final ReaderFeeds feeds;
    private final Folders folders;
    private final Stars stars;
    private final HomeFeed home;
    private final Items items;
    private final JsonMapper json;
    private final FullArticles articles;
    private final ItemContents contents;
    private final Cache<Key, Rendered> rendered = Caffeine.newBuilder().maximumWeight(CACHE_BYTES)
            .weigher((Key key, Rendered r) -> r.head().length + r.tags().length + 64).expireAfterWrite(TTL).build();
    private final Cache<Long, Labels> labels = Caffeine.newBuilder().maximumSize(100_000).expireAfterWrite(TTL).build();
    private final Cache<Long, Flags> flags = Caffeine.newBuilder().maximumSize(20_000).expireAfterWrite(TTL).build();

    ReaderItems(ReaderFeeds feeds, Folders folders, Stars stars, HomeFeed home, Items items, JsonMapper json, FullArticles articles,
            ItemContents contents) {
        this.articles = articles;
        this.contents = contents;
        this.feeds = feeds;
        this.folders = folders;
        this.stars = stars;
        this.home = home;
        this.items = items;
        this.json = json;
    }

    /**
     * Appends the JSON array of the person's items among these ids, in the order given: entries of
     * their inbox, and starred items that left it (as read); anything else is left out.
     */
    void appendArray(ByteArrayOutputStream out, long userId, List<Long> ids) {
        out.write('[');
        if (ids.isEmpty()) {
            out.write(']');
            return;
        }
        TimelineStamps stamps = stamps(userId, ids);
        Map<Long, Integer> flagged = flags(userId, ids, stamps);
        Map<Long, Rendered> heads = heads(ids.stream().filter(id -> flagged.getOrDefault(id, 0) != 0).toList(), stamps, ids);
        Map<Long, byte[]> filed = labels(userId, stamps);
        boolean first = true;
        for (Long id : ids) {
            Rendered head = heads.get(id);
            if (head == null) {
                continue;
            }
            if (!first) {
                out.write(',');
            }
            first = false;
            int flag = flagged.get(id);
            out.writeBytes(head.head());
            out.writeBytes(CATEGORIES);
            // A starred item that left the inbox reads as read: nothing there marks it unread.
            if ((flag & HELD) == 0 || (flag & READ) != 0) {
                out.writeBytes(READ_JSON);
            }
            if ((flag & STARRED) != 0) {
                out.writeBytes(STARRED_JSON);
            }
            out.writeBytes(filed.getOrDefault(head.sourceId(), NONE));
            out.writeBytes(head.tags());
            out.writeBytes(END);
        }
        out.write(']');
    }

    private TimelineStamps stamps(long userId, List<Long> ids) {
        try {
            return home.stamps(userId, ids);
        } catch (DataAccessException trouble) {
            RedisFailures.rethrowUnlessRedis(trouble);
            log.warn("Google Reader item cache bypassed: {}", trouble.getMessage());
            return new TimelineStamps(null, null, java.util.Collections.nCopies(ids.size(), null));
        }
    }

    /** The rendered heads of these visible items: kept ones whose stamps hold, the rest loaded and rendered once. */
    private Map<Long, Rendered> heads(List<Long> visible, TimelineStamps stamps, List<Long> stampedIds) {
        String base = feeds.base();
        Map<Long, String> itemStamps = new HashMap<>();
        for (int i = 0; i < stampedIds.size(); i++) {
            itemStamps.put(stampedIds.get(i), stamps.items().get(i));
        }
        Map<Long, Rendered> heads = new HashMap<>();
        List<Long> missing = new ArrayList<>();
        for (Long id : visible) {
            Rendered kept = stamps.epoch() == null ? null : rendered.getIfPresent(new Key(id, base));
            if (kept != null && Objects.equals(kept.epoch(), stamps.epoch()) && Objects.equals(kept.stamp(), itemStamps.get(id))) {
                heads.put(id, kept);
            } else {
                missing.add(id);
            }
        }
        if (missing.isEmpty()) {
            return heads;
        }
        List<Stored<Item>> loaded = items.getAll(missing).stream().filter(item -> !item.body().deleted()).toList();
        Map<Long, FeedRef> origins = feeds.describe(loaded.stream().map(item -> item.body().sourceId()).distinct().toList());
        // An article kept after the head was rendered shows once the head is rendered again (within the minute it is kept).
        Map<Long, Article> full = articles.keptAll(loaded.stream().map(Stored::id).toList());
        Map<Long, ItemContent> feedContents = contents.findAll(loaded.stream().map(Stored::id).toList());
        for (Stored<Item> item : loaded) {
            Rendered fresh = new Rendered(stamps.epoch(), itemStamps.get(item.id()),
                    head(item, origins.get(item.body().sourceId()), full.get(item.id()), feedContents.get(item.id())),
                    item.body().sourceId(),
                    commaList(item.body().tags()));
            heads.put(item.id(), fresh);
            if (stamps.epoch() != null) {
                rendered.put(new Key(item.id(), base), fresh);
            }
        }
        return heads;
    }

    /**
     * The person's flags of these items: kept ones while their stamp holds (it moves with every
     * read mark and star), the rest read from MySQL (after the stamps, so a change racing the
     * read voids what is kept) and added to what is kept.
     */
    private Map<Long, Integer> flags(long userId, List<Long> ids, TimelineStamps stamps) {
        Flags kept = flags.getIfPresent(userId);
        boolean holds = kept != null && stamps.epoch() != null && Objects.equals(kept.epoch(), stamps.epoch())
                && Objects.equals(kept.stamp(), stamps.person());
        if (holds && kept.byItem().keySet().containsAll(ids)) {
            return kept.byItem();
        }
        List<Long> missing = holds ? ids.stream().filter(id -> !kept.byItem().containsKey(id)).toList() : ids;
        Map<Long, Boolean> read = home.readStates(userId, missing);
        Set<Long> starred = stars.starredAmong(userId, missing);
        Map<Long, Integer> merged = new HashMap<>(holds && kept.byItem().size() + missing.size() <= MAX_FLAGS
                ? kept.byItem() : Map.of());
        for (Long id : missing) {
            Boolean isRead = read.get(id);
            merged.put(id, (isRead == null ? 0 : HELD | (isRead ? READ : 0)) | (starred.contains(id) ? STARRED : 0));
        }
        if (stamps.epoch() != null) {
            flags.put(userId, new Flags(stamps.epoch(), stamps.person(), Map.copyOf(merged)));
        }
        return merged;
    }

    /** The person's folders as label ids by source, kept while their stamp holds. */
    private Map<Long, byte[]> labels(long userId, TimelineStamps stamps) {
        Labels kept = labels.getIfPresent(userId);
        if (kept != null && stamps.epoch() != null && Objects.equals(kept.epoch(), stamps.epoch())
                && Objects.equals(kept.stamp(), stamps.person())) {
            return kept.bySource();
        }
        Map<Long, byte[]> bySource = new HashMap<>();
        for (Map.Entry<Long, List<Folder>> filed : folders.foldersBySource(userId).entrySet()) {
            bySource.put(filed.getKey(), commaList(filed.getValue().stream().map(f -> StreamId.label(f.name())).toList()));
        }
        if (stamps.epoch() != null) {
            labels.put(userId, new Labels(stamps.epoch(), stamps.person(), Map.copyOf(bySource)));
        }
        return bySource;
    }

    /** JSON strings in UTF-8, each after a comma: to follow other elements of an array. */
    private byte[] commaList(List<String> values) {
        if (values.isEmpty()) {
            return NONE;
        }
        String array = json.writeValueAsString(values);
        return ("," + array.substring(1, array.length() - 1)).getBytes(UTF_8);
    }

    /** The item's JSON object without its categories and closing brace. */
    private byte[] head(Stored<Item> stored, @Nullable FeedRef origin, @Nullable Article article,
            @Nullable ItemContent feedContent) {
        Item body = stored.body();
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("id", ItemIds.longForm(stored.id()));
        long receivedMicros = body.receivedAt().getEpochSecond() * 1_000_000 + body.receivedAt().getNano() / 1000;
        item.put("crawlTimeMsec", Long.toString(receivedMicros / 1000));
        item.put("timestampUsec", Long.toString(receivedMicros));
        item.put("published", body.publishedAt().getEpochSecond());
        item.put("updated", stored.updated().getEpochSecond());
        item.put("title", body.title() == null ? "" : body.title());
        String href = body.url() != null ? body.url() : feeds.itemPage(stored.id());
        item.put("canonical", List.of(Map.of("href", href)));
        item.put("alternate", List.of(Map.of("href", href, "type", "text/html")));
        item.put("summary", Map.of("direction", "ltr", "content", body.summary() == null ? "" : body.summary()));
        if (article != null) {
            // Apps show content in preference to summary: the whole article rather than the feed's teaser.
            item.put("content", Map.of("direction", "ltr", "content", article.html()));
        } else if (feedContent != null) {
            // Else the feed's own full content, as every reader app shows it.
            item.put("content", Map.of("direction", "ltr", "content", feedContent.html()));
        }
        item.put("author", body.author() == null ? "" : body.author());
        if (origin != null) {
            item.put("origin", Map.of("streamId", origin.streamId(), "title", origin.title(), "htmlUrl", origin.htmlUrl()));
        }
        if (!body.media().isEmpty()) {
            item.put("enclosure", body.media().stream().map(ReaderItems::enclosure).toList());
        }
        byte[] whole = json.writeValueAsBytes(item);
        return java.util.Arrays.copyOf(whole, whole.length - 1);
    }

    private static Map<String, Object> enclosure(Media media) {
        Map<String, Object> enclosure = new LinkedHashMap<>();
        enclosure.put("href", media.url());
        if (media.type() != null) {
            enclosure.put("type", media.type());
        }
        if (media.length() != null) {
            enclosure.put("length", Long.toString(media.length()));
        }
        return enclosure;
    }
}
