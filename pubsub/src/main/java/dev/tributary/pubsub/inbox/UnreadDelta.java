package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.MediaType;

/**
 * A change of one person's unread count for one (source, media type) by an entry of {@code itemId}:
 * +1 delivered, -1 read, …; it moves their counters only if the item is at or below their count
 * horizon ({@link CountHorizon}). As a count read from the inbox, {@code change} is the count and
 * {@code itemId} is 0.
 */
record UnreadDelta(long userId, long itemId, long sourceId, MediaType media, int change) {

    static UnreadDelta of(InboxRow row, int change) {
        return new UnreadDelta(row.userId(), row.itemId(), row.sourceId(), row.media(), change);
    }

    /** A count of the person's unread entries of one (source, media type), as read from the inbox. */
    static UnreadDelta counted(long userId, long sourceId, MediaType media, int count) {
        return new UnreadDelta(userId, 0, sourceId, media, count);
    }
}
