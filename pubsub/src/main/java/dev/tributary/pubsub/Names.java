package dev.tributary.pubsub;

import java.text.Normalizer;
import java.util.Locale;

/**
 * The rules for names people give things (folders, their titles of subscriptions): trimmed,
 * Unicode NFC, 1 to {@code max} characters (code points), no control characters; and the
 * case-folded key under which folder names are unique.
 */
public final class Names {

    private Names() {
    }

    /**
     * The name as stored.
     *
     * @throws InvalidNameException if it is empty once trimmed, too long or holds a control character
     */
    public static String clean(String field, String name, int max) {
        String cleaned = Normalizer.normalize(name.strip(), Normalizer.Form.NFC);
        if (cleaned.isEmpty()) {
            throw new InvalidNameException(field, "must not be empty");
        }
        if (cleaned.codePointCount(0, cleaned.length()) > max) {
            throw new InvalidNameException(field, "must be at most " + max + " characters");
        }
        if (cleaned.codePoints().anyMatch(c -> Character.getType(c) == Character.CONTROL
                || c == 0x2028 || c == 0x2029 || Character.getType(c) == Character.UNASSIGNED && c >= 0xFFFE)) {
            throw new InvalidNameException(field, "must not contain control characters");
        }
        return cleaned;
    }

    /** The key two names share when they differ only in case ("Ärger", "ÄRGER", "ärger"). */
    public static String key(String cleaned) {
        return Normalizer.normalize(cleaned.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT), Normalizer.Form.NFC);
    }
}
