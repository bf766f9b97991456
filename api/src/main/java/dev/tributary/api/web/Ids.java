package dev.tributary.api.web;

import org.jspecify.annotations.Nullable;

/** Ids on the wire are decimal strings (JavaScript loses precision past 2^53); these convert them. */
public final class Ids {

    private Ids() {
    }

    public static String format(long id) {
        return Long.toString(id);
    }

    /** A path id: anything but a positive decimal long names nothing, so it is a 404 for {@code what}. */
    public static long path(String value, String what) {
        Long id = parse(value);
        if (id == null) {
            throw ApiProblem.notFound(what);
        }
        return id;
    }

    /** An optional id parameter or body field: absent is null, anything but a positive decimal long is a 400. */
    public static @Nullable Long optional(String field, @Nullable String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        Long id = parse(value);
        if (id == null) {
            throw ApiProblem.invalid(field, "must be an id (a positive decimal number)");
        }
        return id;
    }

    /** An id a client may have garbled and that is only a hint: what is not an id is treated as absent. */
    public static @Nullable Long lenient(@Nullable String value) {
        return parse(value);
    }

    /** A required id parameter or body field. */
    public static long required(String field, @Nullable String value) {
        Long id = optional(field, value);
        if (id == null) {
            throw ApiProblem.invalid(field, "is required");
        }
        return id;
    }

    private static @Nullable Long parse(@Nullable String value) {
        if (value == null || value.isEmpty() || value.length() > 19) {
            return null;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return null;
            }
        }
        try {
            long id = Long.parseLong(value);
            return id > 0 ? id : null;
        } catch (NumberFormatException tooLarge) {
            return null;
        }
    }
}
