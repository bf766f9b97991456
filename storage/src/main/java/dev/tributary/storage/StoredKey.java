package dev.tributary.storage;

import java.util.HexFormat;
import java.util.List;

/**
 * An index key as the table holds it: Long, String, or {@link Hash16} per column. Comparable by
 * value, which is what the re-check of query results and the cleaner's diff need.
 */
record StoredKey(List<Object> values) {

    StoredKey {
        values = List.copyOf(values);
    }

    /** A BINARY(16) value; kept as hex so that records compare by content. */
    record Hash16(String hex) {
        static Hash16 of(byte[] bytes) {
            return new Hash16(HexFormat.of().formatHex(bytes));
        }

        byte[] bytes() {
            return HexFormat.of().parseHex(hex);
        }
    }

    /** The values as JDBC parameters, in column order. */
    List<Object> sqlValues() {
        return values.stream().map(v -> v instanceof Hash16 h ? (Object) h.bytes() : v).toList();
    }

    boolean startsWith(StoredKey prefix) {
        return values.size() >= prefix.values.size()
                && values.subList(0, prefix.values.size()).equals(prefix.values);
    }

    long last() {
        return (Long) values.getLast();
    }
}
