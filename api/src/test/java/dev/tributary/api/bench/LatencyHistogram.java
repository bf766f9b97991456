package dev.tributary.api.bench;

/**
 * Request latencies in log-linear buckets of microseconds: exact below 128 µs, then 64 buckets
 * per power of two (within 1.6 %), up to about 35 minutes. One per connection, merged at the end,
 * so recording takes no lock and no allocation.
 */
final class LatencyHistogram {

    private static final int EXACT = 128;
    private static final int SUB_BUCKETS = 64;
    private static final int BUCKETS = EXACT + SUB_BUCKETS * 40;

    private final long[] counts = new long[BUCKETS];
    private long total;

    void record(long nanos) {
        counts[index(Math.max(0, nanos / 1_000))]++;
        total++;
    }

    /** Adds {@code n} latencies to bucket {@code index} (a histogram sent from another process). */
    void addToBucket(int index, long n) {
        counts[index] += n;
        total += n;
    }

    /** The non-empty buckets as {@code index:count} pairs, comma-separated ({@link #addToBucket} reads them back). */
    String buckets() {
        StringBuilder pairs = new StringBuilder();
        for (int i = 0; i < BUCKETS; i++) {
            if (counts[i] > 0) {
                pairs.append(pairs.isEmpty() ? "" : ",").append(i).append(':').append(counts[i]);
            }
        }
        return pairs.toString();
    }

    void add(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
    }

    long count() {
        return total;
    }

    /** The {@code p}-quantile (0..1) in milliseconds: the middle of the bucket holding it. */
    double quantileMillis(double p) {
        if (total == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(p * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return (lowerBound(i) + upperBound(i)) / 2.0 / 1_000.0;
            }
        }
        throw new IllegalStateException("unreachable: rank " + rank + " of " + total);
    }

    static int index(long micros) {
        if (micros < EXACT) {
            return (int) micros;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(micros);
        int shift = exponent - 6; // keeps the top 7 bits: a mantissa of 64..127
        int mantissa = (int) (micros >>> shift);
        return Math.min(BUCKETS - 1, EXACT + (shift - 1) * SUB_BUCKETS + (mantissa - SUB_BUCKETS));
    }

    /** The smallest value (µs) that falls in bucket {@code index}. */
    static long lowerBound(int index) {
        if (index < EXACT) {
            return index;
        }
        int shift = (index - EXACT) / SUB_BUCKETS + 1;
        long mantissa = (index - EXACT) % SUB_BUCKETS + SUB_BUCKETS;
        return mantissa << shift;
    }

    /** The largest value (µs) that falls in bucket {@code index}. */
    static long upperBound(int index) {
        return index < EXACT ? index : lowerBound(index + 1) - 1;
    }
}
