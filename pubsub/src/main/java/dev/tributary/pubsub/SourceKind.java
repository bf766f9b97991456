package dev.tributary.pubsub;

import java.util.Locale;

/** Where a source's items come from. */
public enum SourceKind {
    /** An external RSS/Atom feed, crawled. */
    FEED,
    /** A person's own source: their posts and the feeds attached to their profile. */
    USER,
    /** A group's source: its members' posts. */
    GROUP;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
