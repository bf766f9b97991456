package dev.tributary.crawler.fetch;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A growable byte array that refuses to grow past a limit. Decoders write straight into its
 * array so that a body is copied once, from the network buffer to here.
 */
final class BoundedBuffer {

    private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;
    private static final int MIN_ROOM = 8192;
    /**
     * Most allocated before bytes arrive: a declared size is a claim, not bytes, and a server
     * that declares 10 MB and sends a trickle must not hold 10 MB per fetch while it does.
     */
    static final int MAX_INITIAL = 64 * 1024;

    private final int limit;
    private final FailureReason overflowReason;
    private final String overflowDetail;
    private byte[] array;
    private int size;

    /**
     * @param sizeHint the expected size (-1 if not known): allocated up front only up to
     *     {@link #MAX_INITIAL}, beyond that the array grows as bytes arrive
     * @param overflowReason what a body past {@code limit} fails with
     */
    BoundedBuffer(long limit, long sizeHint, FailureReason overflowReason) {
        this.limit = (int) Math.min(limit, MAX_ARRAY - 1);
        this.overflowReason = overflowReason;
        this.overflowDetail = "body is larger than " + limit + " bytes"
                + (overflowReason == FailureReason.DECOMPRESSED_TOO_LARGE ? " once decompressed" : "");
        int initial = sizeHint < 0 ? 16 * 1024 : (int) Math.min(Math.min(sizeHint, this.limit), MAX_INITIAL);
        this.array = new byte[Math.max(initial, 0)];
    }

    int size() {
        return size;
    }

    byte[] array() {
        return array;
    }

    /** Copies {@code src} in whole, or fails without copying when it would pass the limit. */
    void write(ByteBuffer src) {
        int n = src.remaining();
        if ((long) size + n > limit) {
            throw overflow();
        }
        ensureCapacity(size + n);
        src.get(array, size, n);
        size += n;
    }

    /**
     * Makes room at {@link #size()} for a decoder to write into, and returns how much it may
     * write: never more than one byte past the limit, so an overflow is caught by
     * {@link #advance} without producing much more than the limit.
     */
    int reserve() {
        int allowed = limit - size + 1;
        ensureCapacity(size + Math.min(MIN_ROOM, allowed));
        return Math.min(array.length - size, allowed);
    }

    /** Accounts for {@code n} bytes a decoder wrote after {@link #reserve()}. */
    void advance(int n) {
        size += n;
        if (size > limit) {
            throw overflow();
        }
    }

    byte[] toByteArray() {
        return size == array.length ? array : Arrays.copyOf(array, size);
    }

    private void ensureCapacity(int needed) {
        if (needed <= array.length) {
            return;
        }
        long doubled = Math.max((long) array.length * 2, needed);
        array = Arrays.copyOf(array, (int) Math.min(doubled, (long) limit + 1));
    }

    private FetchAbort overflow() {
        return new FetchAbort(overflowReason, overflowDetail);
    }
}
