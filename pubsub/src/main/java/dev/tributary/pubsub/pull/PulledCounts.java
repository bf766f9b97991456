package dev.tributary.pubsub.pull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * People's unread counts of their pulled sources, brought up to date from the sources' sequences:
 * this node keeps each person's last count with where every source stood when it was read, and
 * the next count reads only the items numbered since, not every item of the horizon again.
 *
 * <p>A kept count is used only while it is the person's current one: read under the same
 * {@code own} version (their pulled follows, read positions and marks, and their inbox's stamp,
 * all read before the count and moved after every change to them), no removal made since in any
 * of its sources, and none of its unread items past the horizon (the caller's {@code aged}). Otherwise, and
 * for people whose own version is unknown, the count is read whole, as before.
 */
final class PulledCounts {

    /** A person's sources as the node knows them and the version they were read under (either null: not known). */
    record Known(@Nullable List<Long> sourceIds, @Nullable String own) {
    }

    private record Kept(String own, Map<Long, PulledTable.SourceMark> marks, List<PulledTable.UnreadGroup> groups) {
    }

    private final PulledTable table;
    /**
     * Sequence ranges one statement reads at most (each a part of its {@code UNION ALL}); a person
     * whose kept count has more sources than this is counted whole instead.
     */
    static final int MAX_RANGES = 256;

    /** What a node keeps at most (a person with 50 pulled sources weighs ~7 KB), least recently used first out. */
    private static final long MAX_BYTES = 32L << 20;

    private final Cache<Long, Kept> kept = Caffeine.newBuilder().maximumWeight(MAX_BYTES)
            .weigher((Long person, Kept count) -> 96 + 2 * count.own().length() + 96 * count.marks().size() + 64 * count.groups().size())
            .expireAfterWrite(Duration.ofHours(1)).build();

    private final int maxRanges;
    /** People's pulled counts brought up to date from a kept one, and read whole. */
    private final Counter broughtUp;
    private final Counter readWhole;

    PulledCounts(PulledTable table, int maxRanges, MeterRegistry registry) {
        this.table = table;
        this.maxRanges = maxRanges;
        this.broughtUp = counted(registry, "brought-up");
        this.readWhole = counted(registry, "whole");
    }

    private static Counter counted(MeterRegistry registry, String way) {
        return Counter.builder("tributary.unread.pulled").tag("way", way)
                .description("people's unread counts of pulled sources brought up to date from the sources' sequences or read "
                        + "over every item").register(registry);
    }

    /**
     * These people's unread groups, items at least {@code keepFloor}; {@code aged} tells whether a
     * kept count's oldest unread item has left the horizon since (its count is read whole).
     * One statement per {@code maxRanges} sequence ranges, and one more for the people whose
     * sources saw a removal meanwhile.
     */
    Map<Long, List<PulledTable.UnreadGroup>> unread(Map<Long, Known> people, long keepFloor, LongPredicate aged) {
        Map<Long, List<PulledTable.UnreadGroup>> counts = new HashMap<>();
        Map<Long, @Nullable Kept> chunk = new LinkedHashMap<>();
        Set<List<Long>> ranges = new HashSet<>();
        for (Map.Entry<Long, Known> person : people.entrySet()) {
            Kept base = usable(person.getKey(), person.getValue(), aged);
            List<List<Long>> theirs = base == null ? List.of()
                    : base.marks().entrySet().stream().map(mark -> List.of(mark.getKey(), mark.getValue().seq())).toList();
            if (!chunk.isEmpty() && ranges.size() + theirs.size() > maxRanges && !ranges.containsAll(theirs)) {
                counts.putAll(unread(chunk, people, keepFloor));
                chunk.clear();
                ranges.clear();
            }
            chunk.put(person.getKey(), base);
            ranges.addAll(theirs);
        }
        if (!chunk.isEmpty()) {
            counts.putAll(unread(chunk, people, keepFloor));
        }
        return counts;
    }

    /** One statement's worth of people, each with their usable kept count (null: counted whole). */
    private Map<Long, List<PulledTable.UnreadGroup>> unread(Map<Long, @Nullable Kept> chunk, Map<Long, Known> people, long keepFloor) {
        List<Long> fully = new ArrayList<>();
        Map<Long, Kept> bases = new HashMap<>();
        Map<List<Long>, List<Long>> since = new LinkedHashMap<>();
        Set<Long> sources = new HashSet<>();
        chunk.forEach((person, base) -> {
            Known known = people.get(person);
            if (known.sourceIds() != null) {
                sources.addAll(known.sourceIds());
            }
            if (base == null) {
                fully.add(person);
                return;
            }
            bases.put(person, base);
            base.marks().forEach((source, mark) -> since.computeIfAbsent(List.of(source, mark.seq()), key -> new ArrayList<>()).add(person));
        });
        List<PulledTable.Since> ranges = new ArrayList<>();
        since.forEach((key, who) -> ranges.add(new PulledTable.Since(key.get(0), key.get(1), who)));
        PulledTable.Recount read = table.unread(fully, ranges, sources, keepFloor);
        Map<Long, List<PulledTable.UnreadGroup>> counts = new HashMap<>();
        for (long person : fully) {
            counts.put(person, keep(person, people.get(person), read.groups().getOrDefault(person, List.of()), read.marks()));
        }
        readWhole.increment(fully.size());
        List<Long> again = new ArrayList<>();
        bases.forEach((person, base) -> {
            if (base.marks().entrySet().stream().anyMatch(mark -> removedSince(mark.getKey(), mark.getValue(), read.marks()))) {
                again.add(person);
            } else {
                List<PulledTable.UnreadGroup> merged = plus(base.groups(), read.groups().getOrDefault(person, List.of()));
                counts.put(person, keep(person, people.get(person), merged, read.marks()));
                broughtUp.increment();
            }
        });
        if (!again.isEmpty()) {
            // A removal in one of their sources since they were kept: read whole, in one more statement.
            Map<Long, @Nullable Kept> whole = new LinkedHashMap<>();
            again.forEach(person -> whole.put(person, null));
            counts.putAll(unread(whole, people, keepFloor));
        }
        return counts;
    }

    /** The person's kept count if it is still theirs to bring up to date; else null. */
    private @Nullable Kept usable(long person, Known known, LongPredicate aged) {
        if (known.own() == null || known.sourceIds() == null || known.sourceIds().size() > maxRanges) {
            return null;
        }
        Kept base = kept.getIfPresent(person);
        if (base == null || !base.own().equals(known.own()) || !base.marks().keySet().equals(new HashSet<>(known.sourceIds()))) {
            return null;
        }
        long oldest = base.groups().stream().mapToLong(PulledTable.UnreadGroup::oldest).min().orElse(Long.MAX_VALUE);
        return oldest != Long.MAX_VALUE && aged.test(oldest) ? null : base;
    }

    private static boolean removedSince(long source, PulledTable.SourceMark before, Map<Long, PulledTable.SourceMark> now) {
        PulledTable.SourceMark mark = now.get(source);
        return mark == null || mark.removed() != before.removed();
    }

    /** Keeps the count under the person's version when every source's mark was read with it; returns it. */
    private List<PulledTable.UnreadGroup> keep(long person, Known known, List<PulledTable.UnreadGroup> groups,
            Map<Long, PulledTable.SourceMark> marks) {
        if (known.own() != null && known.sourceIds() != null && known.sourceIds().size() <= maxRanges
                && marks.keySet().containsAll(known.sourceIds())) {
            Map<Long, PulledTable.SourceMark> theirs = new HashMap<>();
            known.sourceIds().forEach(source -> theirs.put(source, marks.get(source)));
            kept.put(person, new Kept(known.own(), Map.copyOf(theirs), List.copyOf(groups)));
        } else {
            kept.invalidate(person);
        }
        return groups;
    }

    /** A kept count with the groups of the items numbered since added: counts summed, the oldest of both. */
    private static List<PulledTable.UnreadGroup> plus(List<PulledTable.UnreadGroup> base, List<PulledTable.UnreadGroup> since) {
        if (since.isEmpty()) {
            return base;
        }
        Map<List<Object>, PulledTable.UnreadGroup> merged = new LinkedHashMap<>();
        Stream.concat(base.stream(), since.stream()).forEach(group -> merged.merge(List.of(group.sourceId(), group.media()), group,
                (a, b) -> new PulledTable.UnreadGroup(a.sourceId(), a.media(), a.count() + b.count(), Math.min(a.oldest(), b.oldest()))));
        return List.copyOf(merged.values());
    }

    /** Forgets every kept count (the page cache switched off). */
    void clear() {
        kept.invalidateAll();
    }
}
