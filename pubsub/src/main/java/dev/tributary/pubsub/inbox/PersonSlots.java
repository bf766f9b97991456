package dev.tributary.pubsub.inbox;

import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The Redis Cluster hash tag of a person's keys (unread counters, page stamps): one of
 * {@value #BUCKETS} buckets, so that the keys of many people fall into few slots and a script
 * that moves a whole fan-out batch of people runs as one call per bucket, not one per person.
 * Every key of one person carries the same tag, so a person's keys share a slot too.
 *
 * <p>Sixteen buckets: a batch of a thousand people is at most sixteen calls. Each bucket's tag is
 * chosen (the first {@code p<bucket>.<n>} whose slot falls there) so that bucket {@code b} hashes
 * into the b-th sixteenth of the 16,384 slots: on a cluster whose masters hold even shares of the
 * slots (what {@code redis-cli --cluster create} and the test kit make) the buckets spread as
 * evenly as sixteen can, 6/5/5 over three masters, where plain {@code {p0}}..{@code {p15}} would
 * fall 4/5/7. The bucket comes from a multiplicative hash of the id, not its low bits, which in
 * generated ids count within a millisecond and bunch up. Bucket count and tags are part of the
 * key names: changing them orphans every person's keys (counters are rebuilt from MySQL on the
 * next read, stamps void kept pages, and the old keys expire).
 */
final class PersonSlots {

    static final int BUCKETS = 16;
    private static final int SHIFT = Long.SIZE - Integer.numberOfTrailingZeros(BUCKETS);
    /** Immutable after class initialisation: the tag of each bucket, braces included. */
    private static final List<String> TAGS = IntStream.range(0, BUCKETS).mapToObj(PersonSlots::tagInOwnSlots).toList();

    private PersonSlots() {
    }

    /** The hash tag, braces included, e.g. {@code {p7.12}}. */
    static String tag(long userId) {
        return TAGS.get(bucket(userId));
    }

    /** Every bucket's tag, by bucket. */
    static List<String> tags() {
        return TAGS;
    }

    static int bucket(long userId) {
        return (int) ((userId * 0x9E3779B97F4A7C15L) >>> SHIFT);
    }

    /** The first {@code p<bucket>.<n>} that hashes into the bucket's sixteenth of the slots. */
    private static String tagInOwnSlots(int bucket) {
        int width = SlotHash.SLOT_COUNT / BUCKETS;
        for (int n = 0; ; n++) {
            String tag = "p" + bucket + "." + n;
            if (SlotHash.getSlot(tag) / width == bucket) {
                return "{" + tag + "}";
            }
        }
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
