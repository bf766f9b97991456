package dev.tributary.pubsub;

import java.time.Instant;
import java.util.Objects;

/** A group (the body of a {@code group} entity): members' posts go to its source. */
public record Group(String name, long ownerId, long sourceId, Instant createdAt) {

    public Group {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
