package dev.tributary.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * The values of an index key (or of a prefix of one), in column order: a {@code Long} for a
 * BIGINT column, a {@code String} for VARCHAR and HASH columns (the store hashes it).
 */
public record IndexKey(List<Object> values) {

    public IndexKey {
        List<Object> normalised = new ArrayList<>(values.size());
        for (Object value : values) {
            normalised.add(switch (value) {
                case null -> throw new IllegalArgumentException("index key values must not be null");
                case Long l -> l;
                case Integer i -> (long) i;
                case Short s -> (long) s;
                case String s -> s;
                default -> throw new IllegalArgumentException(
                        "index key values are Long or String, not " + value.getClass().getName());
            });
        }
        values = List.copyOf(normalised);
    }

    public static IndexKey of(Object... values) {
        return new IndexKey(java.util.Arrays.asList(values));
    }

    public int size() {
        return values.size();
    }
}
