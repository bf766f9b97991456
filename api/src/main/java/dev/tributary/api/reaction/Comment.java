package dev.tributary.api.reaction;

import java.time.Instant;

/** A stored comment on an item: plain text, by one person. */
record Comment(long id, long itemId, long userId, String text, Instant createdAt) {
}
