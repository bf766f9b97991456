package dev.tributary.pubsub;

import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One page request of a home timeline. Paging as in Mastodon: {@code maxId} older than,
 * {@code sinceId} newer than (the newest such), {@code minId} immediately newer than (the
 * oldest such); filters by media types (null: all), tag, source, a set of sources (a folder's:
 * null for no such filter, empty for a folder with nothing filed in it) and unread only.
 */
public record TimelineQuery(
        @Nullable Long maxId,
        @Nullable Long sinceId,
        @Nullable Long minId,
        int limit,
        @Nullable Set<MediaType> media,
        @Nullable String tag,
        @Nullable Long sourceId,
        boolean unreadOnly,
        @Nullable Set<Long> sourceIds) {

    /** Largest page. */
    public static final int MAX_LIMIT = 200;

    public TimelineQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", not " + limit);
        }
        media = media == null || media.isEmpty() || media.size() == MediaType.values().length ? null : Set.copyOf(media);
        tag = tag == null || tag.isBlank() ? null : tag;
        sourceIds = sourceIds == null ? null : Set.copyOf(sourceIds);
    }

    /** A query without a set of sources. */
    public TimelineQuery(@Nullable Long maxId, @Nullable Long sinceId, @Nullable Long minId, int limit,
            @Nullable Set<MediaType> media, @Nullable String tag, @Nullable Long sourceId, boolean unreadOnly) {
        this(maxId, sinceId, minId, limit, media, tag, sourceId, unreadOnly, null);
    }

    /** The newest {@code limit} entries, no filter. */
    public static TimelineQuery newest(int limit) {
        return new TimelineQuery(null, null, null, limit, null, null, null, false);
    }

    /**
     * Whether the page is the newest entries with no cursor and no filter: what clients poll, the
     * page a node may keep (and the only one whose rows are the inbox's newest {@code limit}).
     */
    public boolean isNewest() {
        return readsFromTheTop() && sinceId == null && tag == null;
    }

    /**
     * Whether the rows this page reads are the inbox's newest ones (a {@code sinceId} only stops
     * early; a tag is filtered after the rows are read), so a first read within the window needs
     * no floor.
     */
    public boolean readsFromTheTop() {
        return maxId == null && minId == null && media == null && sourceId == null && sourceIds == null && !unreadOnly;
    }

    /**
     * Whether the page reads the whole unread horizon rather than the home window: unread entries
     * and one source's or one folder's entries (with any media or tag filter on top) reach back as
     * far as the inbox keeps them, so that every unread entry can be listed and each source's and
     * folder's unread count matches what its page shows.
     */
    public boolean readsHorizon() {
        return unreadOnly || sourceId != null || sourceIds != null;
    }

    public TimelineQuery olderThan(long id) {
        return new TimelineQuery(id, sinceId, null, limit, media, tag, sourceId, unreadOnly, sourceIds);
    }

    public TimelineQuery withMedia(Set<MediaType> types) {
        return new TimelineQuery(maxId, sinceId, minId, limit, types, tag, sourceId, unreadOnly, sourceIds);
    }

    public TimelineQuery withTag(String newTag) {
        return new TimelineQuery(maxId, sinceId, minId, limit, media, newTag, sourceId, unreadOnly, sourceIds);
    }

    public TimelineQuery withSource(long id) {
        return new TimelineQuery(maxId, sinceId, minId, limit, media, tag, id, unreadOnly, sourceIds);
    }

    public TimelineQuery unread() {
        return new TimelineQuery(maxId, sinceId, minId, limit, media, tag, sourceId, true, sourceIds);
    }

    /** Only entries of these sources (a folder's). */
    public TimelineQuery withSources(Set<Long> ids) {
        return new TimelineQuery(maxId, sinceId, minId, limit, media, tag, sourceId, unreadOnly, ids);
    }
}
