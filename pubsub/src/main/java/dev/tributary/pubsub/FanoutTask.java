package dev.tributary.pubsub;

/**
 * One claimed unit of fan-out work, as its worker holds it: deliver an item to the subscribers
 * of one audience source, or retract a tombstoned item from every inbox. {@code leaseToken}
 * proves the claim; {@code cursorUser}/{@code appliedUser} are the committed progress.
 */
record FanoutTask(long id, Kind kind, long itemId, long sourceId, long audienceSourceId, MediaType media,
        long cursorUser, long appliedUser, long leaseToken, int attempts) {

    /** A cursor past every user id: the rows are all written, only the Redis side may be left. */
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

    FanoutTask advancedTo(long cursor, long applied) {
        return new FanoutTask(id, kind, itemId, sourceId, audienceSourceId, media, cursor, applied, leaseToken, attempts);
    }

    /** Whether an earlier holder may have committed rows whose Redis side never happened. */
    boolean hasUnappliedGap() {
        return appliedUser < cursorUser;
    }
}
