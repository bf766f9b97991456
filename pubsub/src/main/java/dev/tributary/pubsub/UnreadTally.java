package dev.tributary.pubsub;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Sums unread counts by source and media type into an {@link Unread}. Source ids are summed in
 * sorted arrays, not a {@code HashMap}: ids made in the same second (an OPML import's sources)
 * differ only in bits {@code Long.hashCode} leaves out of the low ones, so they share a bin and
 * every count read turned those bins into trees (a tenth of a live stream's render under load).
 */
public final class UnreadTally {

    private long[] sources = new long[64];
    private long[] counts = new long[64];
    private int size;
    private final long[] media = new long[MediaType.values().length];
    private long total;

    /** Adds {@code count} unread entries of this source and media type. */
    public UnreadTally add(long sourceId, MediaType type, long count) {
        addSource(sourceId, count);
        media[type.ordinal()] += count;
        total += count;
        return this;
    }

    /** Adds every count of {@code unread} (its trimmed count is not added: {@link #build} takes it). */
    public UnreadTally addAll(Unread unread) {
        unread.bySource().forEach(this::addSource);
        unread.byMedia().forEach((type, count) -> media[type.ordinal()] += count);
        total += unread.total();
        return this;
    }

    private void addSource(long sourceId, long count) {
        if (size == sources.length) {
            sources = Arrays.copyOf(sources, size * 2);
            counts = Arrays.copyOf(counts, size * 2);
        }
        sources[size] = sourceId;
        counts[size++] = count;
    }

    /** The counts summed so far (sources and media types whose sum is not positive left out), with this trimmed count. */
    public Unread build(long trimmedUnread) {
        long[] ids = Arrays.copyOf(sources, size);
        Arrays.sort(ids);
        int unique = 0;
        for (int i = 0; i < ids.length; i++) {
            if (i == 0 || ids[i] != ids[unique - 1]) {
                ids[unique++] = ids[i];
            }
        }
        long[] sums = new long[unique];
        for (int i = 0; i < size; i++) {
            sums[Arrays.binarySearch(ids, 0, unique, sources[i])] += counts[i];
        }
        List<Map.Entry<Long, Long>> bySource = new ArrayList<>(unique);
        for (int i = 0; i < unique; i++) {
            if (sums[i] > 0) {
                bySource.add(Map.entry(ids[i], sums[i]));
            }
        }
        Map<MediaType, Long> byMedia = new EnumMap<>(MediaType.class);
        for (MediaType type : MediaType.values()) {
            if (media[type.ordinal()] > 0) {
                byMedia.put(type, media[type.ordinal()]);
            }
        }
        @SuppressWarnings("unchecked")
        Map.Entry<Long, Long>[] entries = bySource.toArray(Map.Entry[]::new);
        return new Unread(total, Map.ofEntries(entries), byMedia, trimmedUnread);
    }
}
