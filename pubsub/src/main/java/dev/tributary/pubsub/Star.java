package dev.tributary.pubsub;

import java.time.Instant;

/**
 * One star: the person starred {@code itemId} at {@code starredAt}. {@code starId} is time-ordered
 * (storage's id generator) and is the cursor of "newest starred first" pages.
 */
public record Star(long starId, long itemId, Instant starredAt) {
}
