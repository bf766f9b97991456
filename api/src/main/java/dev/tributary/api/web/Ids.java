package dev.tributary.api.web;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Ids on the wire are decimal strings (JavaScript loses precision past 2^53); these convert them. */
public final class Ids {

    /**
     * An id as the wire spells it: a positive decimal number up to {@link Long#MAX_VALUE}, no
     * leading zero. The parser below runs this expression and the OpenAPI document states it, so
     * what a client may send is exactly what is read.
     */
    public static final String PATTERN = "^(?:" + upTo(Long.toString(Long.MAX_VALUE)) + ")$";
    /** An optional id field or parameter: an id, or empty for none. */
    public static final String OPTIONAL_PATTERN = "^(?:" + upTo(Long.toString(Long.MAX_VALUE)) + ")?$";
    private static final Pattern ID = Pattern.compile(PATTERN);

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
        return value != null && ID.matcher(value).matches() ? Long.parseLong(value) : null;
    }

    /**
     * The decimal numbers from 1 to {@code max} without leading zeros, as alternatives that a JSON
     * Schema validator reads as Java does: the shorter numbers, then for each digit of
     * {@code max} the numbers sharing its prefix with a smaller digit there, then {@code max} itself.
     */
    private static String upTo(String max) {
        StringBuilder any = new StringBuilder("[1-9][0-9]{0," + (max.length() - 2) + "}");
        for (int i = 0; i < max.length(); i++) {
            int digit = max.charAt(i) - '0';
            int lowest = i == 0 ? 1 : 0;
            if (digit > lowest) {
                int rest = max.length() - i - 1;
                any.append('|').append(max, 0, i).append('[').append(lowest).append('-').append(digit - 1).append(']')
                        .append(rest == 0 ? "" : "[0-9]{" + rest + "}");
            }
        }
        return any.append('|').append(max).toString();
    }
}
