package dev.tributary.pubsub.pull;

import dev.tributary.pubsub.MediaType;

/**
 * A person's follow of a source that has pulled items: its media mask, the first item that is
 * theirs ({@code fromId}) and the position up to which they have read ({@code readUpto}).
 */
record PulledFollow(long sourceId, int mask, long fromId, long readUpto) {

    boolean takes(MediaType media) {
        return (mask & media.bit()) != 0;
    }
}
