package dev.tributary.api.greader;

import dev.tributary.api.web.ApiProblem;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Google Reader's three forms of an item id: {@code tag:google.com,2005:reader/item/<16 hex>}
 * (what contents carry), the bare 16 hex digits, and the decimal number (what id lists carry).
 * A 16-character string of hex digits is read as hex: Tributary's ids are 18 or 19 decimal digits.
 */
final class ItemIds {

    /** Most {@code i} parameters one call takes (NetNewsWire sends 1,000 marks at a time). */
    static final int MAX_PER_CALL = 1000;

    private static final String LONG_PREFIX = "tag:google.com,2005:reader/item/";

    private ItemIds() {
    }

    static String longForm(long id) {
        return LONG_PREFIX + String.format(Locale.ROOT, "%016x", id);
    }

    /** The distinct ids given, in order; a malformed one, or more than {@link #MAX_PER_CALL}, is a 400. */
    static List<Long> parseAll(List<String> given) {
        if (given.size() > MAX_PER_CALL) {
            throw ApiProblem.invalid("i", "at most " + MAX_PER_CALL + " item ids per call, not " + given.size());
        }
        Set<Long> ids = new LinkedHashSet<>();
        for (String value : given) {
            ids.add(parse(value));
        }
        return List.copyOf(ids);
    }

    static long parse(String value) {
        String id = value.strip();
        if (id.regionMatches(true, 0, LONG_PREFIX, 0, LONG_PREFIX.length())) {
            return hex(id.substring(LONG_PREFIX.length()), value);
        }
        if (id.length() == 16) {
            return hex(id, value);
        }
        if (id.isEmpty() || id.length() > 19 || !id.chars().allMatch(Character::isDigit)) {
            throw malformed(value);
        }
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException tooLarge) {
            throw malformed(value);
        }
    }

    private static long hex(String digits, String value) {
        if (digits.length() != 16 || !digits.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw malformed(value);
        }
        long id = Long.parseUnsignedLong(digits, 16);
        if (id < 0) {
            throw malformed(value);
        }
        return id;
    }

    private static ApiProblem malformed(String value) {
        String shown = value.length() > 60 ? value.substring(0, 60) + "…" : value;
        return ApiProblem.invalid("i", "'" + shown + "' is not an item id (tag:google.com,2005:reader/item/<16 hex digits>, "
                + "16 hex digits, or a decimal number)");
    }
}
