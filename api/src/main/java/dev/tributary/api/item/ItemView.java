package dev.tributary.api.item;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.tributary.pubsub.ItemContent;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An item as API.md defines it; {@code summary} is HTML sanitised when the item was stored.
 * {@code alsoIn} names the other feeds the same story reached the reader through (their one
 * inbox entry stands for all of them); empty elsewhere. {@code sharedBy} names the people who posted
 * the item's link (absent when nobody but its own author did). {@code content} is the feed's own
 * full content (sanitised HTML, at most 512 KB, {@code contentTruncated} when the feed's was cut):
 * only the single item view carries it ({@link #withContent}); timelines keep to summaries, so both
 * are absent there.
 * {@code starred} stays the last component: the cached newest page turns an item's JSON into its
 * starred form by its last field ({@link ItemJson}).
 */
public record ItemView(
        String id,
        SourceRef source,
        @Nullable String author,
        @Nullable String title,
        @Nullable String summary,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String content,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Boolean contentTruncated,
        @Nullable String url,
        String mediaType,
        List<MediaView> media,
        List<String> tags,
        Instant publishedAt,
        Instant receivedAt,
        boolean read,
        long likesCount,
        long commentsCount,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable SharedByView sharedBy,
        List<SourceRef> alsoIn,
        boolean starred) {

    public ItemView {
        alsoIn = List.copyOf(alsoIn);
    }

    /** The same item as a reader who has (or has not) read it sees it. */
    public ItemView withRead(boolean isRead) {
        return isRead == read ? this : new ItemView(id, source, author, title, summary, content, contentTruncated, url, mediaType, media, tags,
                publishedAt, receivedAt, isRead, likesCount, commentsCount, sharedBy, alsoIn, starred);
    }

    /** The same item as a reader who has (or has not) starred it sees it. */
    public ItemView withStarred(boolean isStarred) {
        return isStarred == starred ? this : new ItemView(id, source, author, title, summary, content, contentTruncated, url, mediaType, media, tags,
                publishedAt, receivedAt, read, likesCount, commentsCount, sharedBy, alsoIn, isStarred);
    }

    /** The same item with the feed's full content, for the single item view; unchanged when there is none. */
    public ItemView withContent(@Nullable ItemContent feedContent) {
        return feedContent == null ? this : new ItemView(id, source, author, title, summary, feedContent.html(),
                feedContent.truncated(), url, mediaType, media, tags, publishedAt, receivedAt, read, likesCount,
                commentsCount, sharedBy, alsoIn, starred);
    }
}
