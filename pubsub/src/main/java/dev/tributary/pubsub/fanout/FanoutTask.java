package dev.tributary.pubsub.fanout;

import dev.tributary.pubsub.MediaType;

/**
 * One claimed unit of fan-out work, as its worker holds it: deliver an item to the subscribers
 * of one audience source, or retract a tombstoned item from every inbox. {@code leaseToken}
 * proves the claim; {@code cursorUser} is the committed progress, {@code endUser} the last
 * subscriber of its range; {@code takenOver} says the
 * previous holder died holding it (its last batch may have reached Redis but not MySQL).
 */
record FanoutTask(long id, Kind kind, long itemId, long sourceId, long audienceSourceId, MediaType media,
        long cursorUser, long endUser, long leaseToken, int attempts, boolean takenOver) {

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

    FanoutTask advancedTo(long cursor) {
        return new FanoutTask(id, kind, itemId, sourceId, audienceSourceId, media, cursor, endUser, leaseToken, attempts, false);
    }

    FanoutTask endingAt(long end) {
        return new FanoutTask(id, kind, itemId, sourceId, audienceSourceId, media, cursorUser, end, leaseToken, attempts, takenOver);
    }
}
