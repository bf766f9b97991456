package dev.tributary.pubsub;

import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A search over the items in a person's reach, with the home timeline's filters: media types
 * (null: all), a tag, sources (the one {@code source_id}, or a folder's; null: all), unread only;
 * {@code after} continues from a previous page.
 */
public record SearchQuery(SearchText text, int limit, @Nullable SearchCursor after, @Nullable Set<MediaType> media,
        @Nullable String tag, @Nullable Set<Long> sourceIds, boolean unread) {

    /** Largest page of hits. */
    public static final int MAX_LIMIT = 100;

    public SearchQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT + ", not " + limit);
        }
        media = media == null || media.isEmpty() ? null : Set.copyOf(media);
        sourceIds = sourceIds == null ? null : Set.copyOf(sourceIds);
        tag = tag == null || tag.isBlank() ? null : tag;
    }

    /** The newest-first first page of {@code text}, without filters. */
    public static SearchQuery of(SearchText text, int limit) {
        return new SearchQuery(text, limit, null, null, null, null, false);
    }
}
