package dev.tributary.api.fever;

import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxScan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Fever's item ids. Tributary's ids are 63 bits (41 of milliseconds since 2025, 10 of node, 12 of
 * sequence); a Fever app reads ids as JSON numbers, which JavaScript and many others hold in a
 * double, exact only up to 2^53: 29 of 50 ids came back changed and 50 items collapsed into 14.
 * A Fever id is the item id without its node bits (milliseconds, then sequence: 53 bits), exact in
 * a double, stable for an item and in the same order as items are made. Read back, it names the
 * items of the person's inbox made in that millisecond with that sequence number: one item, unless
 * two nodes made one each in the same millisecond and sequence, in which case a mark reaches both.
 */
final class FeverIds {

    static final long MAX = (1L << 53) - 1;
    private static final int NODE_BITS = 10;
    private static final int SEQUENCE_BITS = 12;
    private static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;
    private static final Instant EPOCH = Instant.parse("2025-01-01T00:00:00Z");

    private FeverIds() {
    }

    static long of(long itemId) {
        return (itemId >>> (NODE_BITS + SEQUENCE_BITS)) << SEQUENCE_BITS | (itemId & SEQUENCE_MASK);
    }

    static List<Long> of(Collection<Long> itemIds) {
        List<Long> ids = new ArrayList<>(itemIds.size());
        itemIds.forEach(id -> ids.add(of(id)));
        return ids;
    }

    /** The lowest item id whose Fever id is {@code feverId} or more (for {@code max_id}: those below). */
    static long lowestItemIdAt(long feverId) {
        return (feverId >>> SEQUENCE_BITS) << (NODE_BITS + SEQUENCE_BITS) | (feverId & SEQUENCE_MASK);
    }

    /** The highest item id whose Fever id is {@code feverId} (for {@code since_id}: those above). */
    static long highestItemIdAt(long feverId) {
        return lowestItemIdAt(feverId) | ((1L << NODE_BITS) - 1) << SEQUENCE_BITS;
    }

    /** The item ids of the person's inbox that carry these Fever ids. */
    static Set<Long> itemIds(HomeFeed home, long userId, Collection<Long> feverIds) {
        Set<Long> found = new LinkedHashSet<>();
        for (long feverId : feverIds) {
            if (feverId <= 0 || feverId > MAX) {
                continue;
            }
            Instant made = EPOCH.plusMillis(feverId >>> SEQUENCE_BITS);
            // The inbox's ids of that one millisecond: a handful at most.
            List<Long> sameMillisecond = home.ids(userId, new InboxScan(InboxScan.Reads.ANY, null, made, made.plusMillis(1), null,
                    true, InboxScan.MAX_LIMIT));
            sameMillisecond.stream().filter(id -> of(id) == feverId).forEach(found::add);
        }
        return found;
    }

    static Optional<Long> itemId(HomeFeed home, long userId, long feverId) {
        return itemIds(home, userId, List.of(feverId)).stream().findFirst();
    }
}
