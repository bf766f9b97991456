package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.MediaType;

/** A change of one person's unread count for one (source, media type): +1 delivered, -1 read, … */
record UnreadDelta(long userId, long sourceId, MediaType media, int change) {

    static UnreadDelta of(InboxRow row, int change) {
        return new UnreadDelta(row.userId(), row.sourceId(), row.media(), change);
    }
}
