package dev.tributary.pubsub;

/** One inbox entry: an item delivered to a person, with the source and media type it counts under. */
record InboxRow(long userId, long itemId, long sourceId, MediaType media, boolean read) {
}
