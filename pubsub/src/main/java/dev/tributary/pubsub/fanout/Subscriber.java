package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.MediaType;

/**
 * One subscriber of a source as fan-out sees it: who, which media types they take, whether they
 * have filter rules, and the source's publish count when they subscribed ({@code subscribers.from_seq}).
 */
record Subscriber(long userId, int mediaMask, boolean hasRules, long fromSeq) {

    boolean takes(MediaType type) {
        return (mediaMask & type.bit()) != 0;
    }
}
