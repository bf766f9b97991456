package dev.tributary.pubsub;

import java.util.Locale;

/** Which text of an item a rule looks at; {@link #ANY} is any of them, {@link #TAGS} any one tag. */
public enum RuleField {
    ANY, TITLE, SUMMARY, URL, AUTHOR, TAGS;

    /** The name the API and the table use: {@code title}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    static RuleField ofKey(String key) {
        return valueOf(key.toUpperCase(Locale.ROOT));
    }
}
