package dev.tributary.pubsub.fanout;

/** A worker's lease on a fan-out task expired and another worker took it: stop without writing. */
class LeaseLostException extends RuntimeException {

    LeaseLostException(long taskId) {
        super("lease on fan-out task " + taskId + " was taken over", null, false, false);
    }

    LeaseLostException(java.util.List<Long> taskIds) {
        super("lease on one of fan-out tasks " + taskIds + " was taken over", null, false, false);
    }
}
