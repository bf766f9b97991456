package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.MediaType;

/** One subscriber of a source as fan-out sees it: who, and which media types they take. */
record Subscriber(long userId, int mediaMask) {

    boolean takes(MediaType type) {
        return (mediaMask & type.bit()) != 0;
    }
}
