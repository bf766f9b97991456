package dev.tributary.pubsub;

import java.time.Instant;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A person's subscription to a source; {@code media} is the set of media types that reach their
 * timeline from it, null for all; {@code title} what the person calls it, null for the source's own title.
 */
public record Subscription(long id, long userId, long sourceId, @Nullable Set<MediaType> media, Instant createdAt,
        @Nullable String title) {

    public Subscription {
        media = media == null ? null : Set.copyOf(media);
    }

    /** A subscription under the source's own title. */
    public Subscription(long id, long userId, long sourceId, @Nullable Set<MediaType> media, Instant createdAt) {
        this(id, userId, sourceId, media, createdAt, null);
    }
}
