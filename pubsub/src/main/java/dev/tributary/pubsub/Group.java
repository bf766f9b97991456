package dev.tributary.pubsub;

import java.time.Instant;
import java.util.Objects;

/**
 * A group (the body of a {@code group} entity): members' posts go to its source. An {@code open}
 * group lets anyone join by themselves; a closed one (the default) admits only those its owner
 * invited. Bodies stored before groups could be opened have no {@code open} field: they read as
 * closed, as every group was invitation-only for others then.
 */
public record Group(String name, long ownerId, long sourceId, Instant createdAt, Boolean open) {

    public Group {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(createdAt, "createdAt");
        open = open != null && open;
    }

    /** A closed group. */
    public Group(String name, long ownerId, long sourceId, Instant createdAt) {
        this(name, ownerId, sourceId, createdAt, false);
    }

    Group withOpen(boolean nowOpen) {
        return new Group(name, ownerId, sourceId, createdAt, nowOpen);
    }
}
