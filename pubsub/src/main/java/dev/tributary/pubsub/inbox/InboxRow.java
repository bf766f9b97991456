package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.MediaType;

/** One inbox entry: an item delivered to a person, with the source and media type it counts under. */
public record InboxRow(long userId, long itemId, long sourceId, MediaType media, boolean read) {
}
