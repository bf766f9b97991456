package dev.tributary.pubsub;

/**
 * What a filter rule does to a delivered item that matches it. Keep-only and drop decide whether
 * the item is delivered at all; mark-read and star apply to what is delivered.
 */
public enum RuleAction {
    /** Of the items in the rule's scope, only those matching some keep-only rule of that scope are delivered. */
    KEEP_ONLY,
    /** A matching item is not delivered: no inbox entry, never counted. */
    DROP,
    /** A matching item is delivered read, so unread counts never count it. */
    MARK_READ,
    /** A matching item is delivered and starred (skipped past the person's star cap). */
    STAR;

    /** The name the API and the table use: {@code keep_only}. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static RuleAction ofKey(String key) {
        return valueOf(key.toUpperCase(java.util.Locale.ROOT));
    }
}
