package dev.tributary.storage;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A kind of entity and the record its JSON body maps to. Declare each kind once as a Spring bean
 * so that the store recognises its rows; the name is what is stored, so never rename it.
 */
public record EntityKind<T>(String name, Class<T> bodyType) {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_.-]{0,31}");

    public EntityKind {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(bodyType, "bodyType");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("kind name must match " + NAME + " (it is stored in entities.kind): '" + name + "'");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
