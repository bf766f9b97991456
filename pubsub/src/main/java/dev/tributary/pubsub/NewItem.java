package dev.tributary.pubsub;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An entry as a publisher hands it over: the crawler from a feed, the API from a post.
 * {@code guid} identifies it within its source; {@code summary} is already sanitised HTML;
 * {@code content}, the feed's own full content, is sanitised and bounded too ({@link ItemContent}).
 */
public record NewItem(
        String guid,
        @Nullable String title,
        @Nullable String summary,
        @Nullable String url,
        @Nullable String author,
        MediaType mediaType,
        List<Media> media,
        List<String> tags,
        Instant publishedAt,
        @Nullable ItemContent content) {

    /** Longest guid accepted; longer identities are the publisher's to hash. */
    public static final int MAX_GUID_LENGTH = 2048;

    public NewItem {
        Objects.requireNonNull(guid, "guid");
        if (guid.isBlank() || guid.length() > MAX_GUID_LENGTH) {
            throw new IllegalArgumentException("guid must be 1.." + MAX_GUID_LENGTH + " characters");
        }
        Objects.requireNonNull(mediaType, "mediaType");
        Objects.requireNonNull(publishedAt, "publishedAt");
        media = Item.copyWithoutNulls(media, "media");
        tags = Item.copyWithoutNulls(tags, "tags");
    }

    /** An entry without full content: a person's post, or a feed entry that has only a summary. */
    public NewItem(String guid, @Nullable String title, @Nullable String summary, @Nullable String url,
            @Nullable String author, MediaType mediaType, List<Media> media, List<String> tags, Instant publishedAt) {
        this(guid, title, summary, url, author, mediaType, media, tags, publishedAt, null);
    }
}
