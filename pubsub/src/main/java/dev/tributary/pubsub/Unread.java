package dev.tributary.pubsub;

import java.util.Map;

/**
 * A person's exact unread counts: in total, per source id and per media type (zeros left out),
 * over the whole unread horizon; and how many unread entries trimming has removed from it
 * (past {@code tributary.inbox.max-entries} or older than {@code tributary.inbox.keep}).
 */
public record Unread(long total, Map<Long, Long> bySource, Map<MediaType, Long> byMedia, long trimmedUnread) {

    public Unread {
        bySource = Map.copyOf(bySource);
        byMedia = Map.copyOf(byMedia);
    }

    /** Counts of a person who never lost an unread entry to trimming. */
    public Unread(long total, Map<Long, Long> bySource, Map<MediaType, Long> byMedia) {
        this(total, bySource, byMedia, 0);
    }
}
