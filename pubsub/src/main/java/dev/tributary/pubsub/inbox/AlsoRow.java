package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.MediaType;

/**
 * Another copy of a story a person holds: {@code itemId} reached them after {@code leadItemId},
 * whose inbox entry stands for both. It has no entry and counts nowhere.
 */
record AlsoRow(long userId, long itemId, long leadItemId, long sourceId, MediaType media) {

    static AlsoRow of(InboxRow copy, long leadItemId) {
        return new AlsoRow(copy.userId(), copy.itemId(), leadItemId, copy.sourceId(), copy.media());
    }
}
