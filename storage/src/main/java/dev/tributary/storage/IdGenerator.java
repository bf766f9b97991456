package dev.tributary.storage;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Snowflake-style ids: 41 bits of milliseconds since 2025-01-01 UTC, 10 bits of node, 12 bits of
 * sequence. Positive, strictly increasing per generator, and sortable by creation time across
 * nodes, so that "newest first" is "highest id first" everywhere.
 */
public final class IdGenerator {

    public static final Instant EPOCH = Instant.parse("2025-01-01T00:00:00Z");
    static final int NODE_BITS = 10;
    static final int SEQUENCE_BITS = 12;
    static final int MAX_NODE = (1 << NODE_BITS) - 1;
    static final int MAX_SEQUENCE = (1 << SEQUENCE_BITS) - 1;
    static final long MAX_MILLIS = (1L << 41) - 1;
    /** A backwards step up to this long (NTP slewing, a VM pause) is waited out; a longer one fails fast. */
    static final long MAX_BACKWARDS_WAIT_MILLIS = 200;

    private final NodeSlot node;
    private final LongSupplier clockMillis;
    private long lastMillis = -1;
    private int sequence;

    IdGenerator(NodeSlot node, LongSupplier clockMillis) {
        this.node = node;
        this.clockMillis = clockMillis;
    }

    /** A new id, never issued before by this generator nor by any generator of another node. */
    public synchronized long next() {
        int nodeId = node.nodeId();
        long millis = elapsed();
        if (millis < lastMillis) {
            millis = waitUntilAtLeast(lastMillis);
        }
        if (millis == lastMillis) {
            sequence = (sequence + 1) & MAX_SEQUENCE;
            if (sequence == 0) {
                // 4096 ids in one millisecond: the next id must wait for the next millisecond.
                millis = waitUntilAtLeast(lastMillis + 1);
            }
        } else {
            sequence = 0;
        }
        lastMillis = millis;
        return (millis << (NODE_BITS + SEQUENCE_BITS)) | ((long) nodeId << SEQUENCE_BITS) | sequence;
    }

    /** The node id the next id will carry (leasing one if needed). */
    public int nodeId() {
        return node.nodeId();
    }

    /** When {@code id} was issued, to the millisecond. */
    public static Instant timestampOf(long id) {
        return EPOCH.plusMillis(id >>> (NODE_BITS + SEQUENCE_BITS));
    }

    static int nodeOf(long id) {
        return (int) ((id >>> SEQUENCE_BITS) & MAX_NODE);
    }

    /** The smallest id that could have been issued at {@code instant}: a bound for "ids since". */
    public static long lowestIdAt(Instant instant) {
        long millis = Math.max(0, instant.toEpochMilli() - EPOCH.toEpochMilli());
        return millis << (NODE_BITS + SEQUENCE_BITS);
    }

    private long elapsed() {
        long millis = clockMillis.getAsLong() - EPOCH.toEpochMilli();
        if (millis < 0 || millis > MAX_MILLIS) {
            throw new IdGenerationException("clock reads " + Instant.ofEpochMilli(clockMillis.getAsLong())
                    + ", outside the id range starting " + EPOCH);
        }
        return millis;
    }

    private long waitUntilAtLeast(long target) {
        long millis = elapsed();
        if (target - millis > MAX_BACKWARDS_WAIT_MILLIS) {
            throw new IdGenerationException("clock moved backwards by " + (target - millis)
                    + " ms; refusing to issue ids that could repeat earlier ones");
        }
        while (millis < target) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            millis = elapsed();
        }
        return millis;
    }
}
