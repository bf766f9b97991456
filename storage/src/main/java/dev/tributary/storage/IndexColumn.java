package dev.tributary.storage;

import java.util.Objects;
import java.util.regex.Pattern;

/** One key column of an index table: a lower-case SQL identifier and its type. */
public record IndexColumn(String name, ColumnType type) {

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]{0,63}");

    public IndexColumn {
        Objects.requireNonNull(type, "type");
        requireIdentifier(name, "index column name");
        if (name.equals("entity_id")) {
            throw new IllegalArgumentException("entity_id is the column every index table already has");
        }
    }

    public static IndexColumn bigint(String name) {
        return new IndexColumn(name, ColumnType.BIGINT);
    }

    public static IndexColumn varchar(String name, int length) {
        return new IndexColumn(name, ColumnType.varchar(length));
    }

    public static IndexColumn hash(String name) {
        return new IndexColumn(name, ColumnType.HASH);
    }

    /** Names are spliced into SQL, so only plain identifiers are accepted. */
    static String requireIdentifier(String value, String what) {
        Objects.requireNonNull(value, what);
        if (!IDENTIFIER.matcher(value).matches()) {
            throw new IllegalArgumentException(what + " must match " + IDENTIFIER + ": '" + value + "'");
        }
        return value;
    }
}
