package dev.tributary.pubsub;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A stored item (the body of an {@code item} entity). A tombstoned item keeps its identity
 * (so its guid is never published again) but loses its content and leaves every timeline.
 * {@code story} (see {@link Stories}) is fixed at first sight, as the id is, and only feed items
 * have one: people's posts linking the same page are conversations, not copies.
 */
public record Item(
        long sourceId,
        String guid,
        @Nullable String title,
        @Nullable String summary,
        @Nullable String url,
        @Nullable String author,
        MediaType mediaType,
        List<Media> media,
        List<String> tags,
        Instant publishedAt,
        Instant receivedAt,
        @Nullable Instant deletedAt,
        @Nullable Long story) {

    public Item {
        Objects.requireNonNull(guid, "guid");
        Objects.requireNonNull(mediaType, "mediaType");
        media = Item.copyWithoutNulls(media, "media");
        tags = Item.copyWithoutNulls(tags, "tags");
    }

    /** A null list is empty; a null element is a caller's mistake, named rather than an anonymous NullPointerException. */
    static <E> List<E> copyWithoutNulls(List<E> list, String what) {
        if (list == null) {
            return List.of();
        }
        if (list.stream().anyMatch(Objects::isNull)) {
            throw new IllegalArgumentException(what + " must not contain null");
        }
        return List.copyOf(list);
    }

    static Item from(long sourceId, NewItem entry, Instant receivedAt, @Nullable Long story) {
        return new Item(sourceId, entry.guid(), entry.title(), entry.summary(), entry.url(), entry.author(),
                entry.mediaType(), entry.media(), entry.tags(), entry.publishedAt(), receivedAt, null, story);
    }

    public boolean deleted() {
        return deletedAt != null;
    }

    /** Whether publishing {@code entry} again would change what readers see. */
    boolean differsFrom(NewItem entry) {
        return !(Objects.equals(title, entry.title()) && Objects.equals(summary, entry.summary())
                && Objects.equals(url, entry.url()) && Objects.equals(author, entry.author())
                && mediaType == entry.mediaType() && media.equals(entry.media()) && tags.equals(entry.tags()));
    }

    /**
     * This item with the content of {@code entry}; identity, publication and receipt time stay. The
     * publication date is fixed at first sight: the item's id (its place in timelines) was drawn
     * from it, and an undated entry is dated by each fetch, which must not count as a change.
     */
    Item updatedFrom(NewItem entry) {
        return new Item(sourceId, guid, entry.title(), entry.summary(), entry.url(), entry.author(),
                entry.mediaType(), entry.media(), entry.tags(), publishedAt, receivedAt, null, story);
    }

    Item tombstoned(Instant at) {
        return new Item(sourceId, guid, null, null, null, null, mediaType, List.of(), List.of(), publishedAt, receivedAt, at, story);
    }
}
