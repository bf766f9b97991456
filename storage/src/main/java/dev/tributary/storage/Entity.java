package dev.tributary.storage;

import java.time.Instant;
import java.util.Objects;

/** One stored entity: its public id, kind, time of last write (microsecond precision) and body. */
public record Entity<T>(long id, EntityKind<T> kind, Instant updated, T body) {

    public Entity {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(updated, "updated");
        Objects.requireNonNull(body, "body");
    }
}
