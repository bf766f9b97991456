package dev.tributary.pubsub.inbox;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Redis Cluster hash tag of a person's keys (unread counters, page stamps): one of
 * {@value #BUCKETS} buckets, so that the keys of many people fall into few slots and a script
 * that moves a whole fan-out batch of people runs as one call per bucket, not one per person.
 * Every key of one person carries the same tag, so a person's keys share a slot too.
 *
 * <p>Sixteen buckets: a batch of a thousand people is at most sixteen calls, and sixteen slots
 * still spread over three masters as 6/5/5. The bucket comes from a multiplicative hash of the
 * id, not its low bits, which in generated ids count within a millisecond and bunch up. The
 * number is part of the key names: changing it orphans every person's keys (they are rebuilt
 * from MySQL on the next read, and the old ones expire).
 */
final class PersonSlots {

    static final int BUCKETS = 16;
    private static final int SHIFT = Long.SIZE - Integer.numberOfTrailingZeros(BUCKETS);

    private PersonSlots() {
    }

    /** The hash tag, braces included, e.g. {@code {p7}}. */
    static String tag(long userId) {
        return "{p" + bucket(userId) + "}";
    }

    static int bucket(long userId) {
        return (int) ((userId * 0x9E3779B97F4A7C15L) >>> SHIFT);
    }

    /**
     * Splits people into the groups of one script call each: on a single Redis, runs of at most
     * {@code perCall} in the given order; on a cluster, one group per bucket (a script may only
     * touch one slot's keys), each again of at most {@code perCall}.
     */
    static List<List<Long>> calls(Collection<Long> users, boolean cluster, int perCall) {
        List<List<Long>> groups = new ArrayList<>();
        if (!cluster) {
            chunk(List.copyOf(users), perCall, groups);
            return groups;
        }
        Map<Integer, List<Long>> byBucket = new LinkedHashMap<>();
        for (long user : users) {
            byBucket.computeIfAbsent(bucket(user), b -> new ArrayList<>()).add(user);
        }
        byBucket.values().forEach(bucket -> chunk(bucket, perCall, groups));
        return groups;
    }

    private static void chunk(List<Long> users, int perCall, List<List<Long>> into) {
        for (int start = 0; start < users.size(); start += perCall) {
            into.add(users.subList(start, Math.min(users.size(), start + perCall)));
        }
    }
}
