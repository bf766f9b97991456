package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.MediaType;

/** One subscriber of a source as fan-out sees it: who, which media types they take, whether they have filter rules. */
record Subscriber(long userId, int mediaMask, boolean hasRules) {

    boolean takes(MediaType type) {
        return (mediaMask & type.bit()) != 0;
    }
}
