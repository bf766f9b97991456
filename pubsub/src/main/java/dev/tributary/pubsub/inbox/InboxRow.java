package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.MediaType;
import org.jspecify.annotations.Nullable;

/**
 * One inbox entry: an item delivered to a person, with the source and media type it counts under,
 * and the item's story (a feed item's canonical link hashed; null for posts), of which a person
 * holds one entry.
 */
public record InboxRow(long userId, long itemId, long sourceId, MediaType media, boolean read, @Nullable Long story) {

    /** An entry of no story (a post, or a caller that does not deduplicate). */
    public InboxRow(long userId, long itemId, long sourceId, MediaType media, boolean read) {
        this(userId, itemId, sourceId, media, read, null);
    }
}
