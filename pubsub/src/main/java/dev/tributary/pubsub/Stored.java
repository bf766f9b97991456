package dev.tributary.pubsub;

import dev.tributary.storage.Entity;
import java.time.Instant;
import java.util.Objects;

/**
 * A stored item, source, group or account as pubsub hands it out: its id, its version (the time of its
 * last write, microsecond precision) and its body.
 */
public record Stored<T>(long id, Instant updated, T body) {

    public Stored {
        Objects.requireNonNull(updated, "updated");
        Objects.requireNonNull(body, "body");
    }

    static <T> Stored<T> of(Entity<T> entity) {
        return new Stored<>(entity.id(), entity.updated(), entity.body());
    }
}
