package dev.tributary.pubsub;

import java.util.Locale;

/** How a rule's pattern reads: a plain text found anywhere in the field, or a regular expression (RE2 syntax). */
public enum RuleSyntax {
    /** A substring, compared after the case folding search uses ({@code SearchTerms.fold}). */
    TEXT,
    /** An RE2 regular expression, matched case-insensitively anywhere in the field, in linear time. */
    REGEX;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    static RuleSyntax ofKey(String key) {
        return valueOf(key.toUpperCase(Locale.ROOT));
    }
}
