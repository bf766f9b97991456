package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.MediaType;

/**
 * One claimed unit of fan-out work, as its worker holds it: deliver an item to the subscribers
 * of one audience source, or retract a tombstoned item from every inbox. {@code leaseToken}
 * proves the claim; {@code cursorUser} is the committed progress, {@code endUser} the last
 * subscriber of its range; {@code takenOver} says the
 * previous holder died holding it (its last batch may have reached Redis but not MySQL).
 * {@code sourceSeq} is the source's publish count of the item's publish (0: not recorded): a
 * subscriber of the source that subscribed at that count or later received the item by its
 * back-fill, not by this task.
 */
record FanoutTask(long id, Kind kind, long itemId, long sourceId, long audienceSourceId, MediaType media,
        long cursorUser, long endUser, long leaseToken, int attempts, boolean takenOver, long sourceSeq) {

    /** A cursor past every user id: the task is complete. */
    static final long DONE = Long.MAX_VALUE;

    /** What the task does. */
    enum Kind {
        DELIVER, RETRACT;

        String sql() {
            return this == DELIVER ? "deliver" : "retract";
        }

        static Kind of(String sql) {
            return sql.equals("deliver") ? DELIVER : RETRACT;
        }
    }

    /** Whether this delivery reaches the subscriber: not if it subscribed after the item was published. */
    boolean reaches(Subscriber subscriber) {
        return sourceSeq == 0 || audienceSourceId != sourceId || subscriber.fromSeq() < sourceSeq;
    }

    FanoutTask advancedTo(long cursor) {
        return new FanoutTask(id, kind, itemId, sourceId, audienceSourceId, media, cursor, endUser, leaseToken, attempts, false, sourceSeq);
    }

    FanoutTask endingAt(long end) {
        return new FanoutTask(id, kind, itemId, sourceId, audienceSourceId, media, cursorUser, end, leaseToken, attempts, takenOver, sourceSeq);
    }
}
