package dev.tributary.pubsub;

import java.time.Instant;

/** One of a person's folders (a Google Reader label): a name, unique for them whatever its case. */
public record Folder(long id, long userId, String name, Instant createdAt) {
}
