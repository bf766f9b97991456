package dev.tributary.pubsub.pull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.pubsub.inbox.Inbox;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * The newest pulled items of each pulled source, kept per node under the source's page stamp.
 * Every follower's page starts from the same newest items, so a popular source's are read from
 * MySQL once per change on each node, not once per follower and page.
 */
@Component
class SourceHeads {

    private static final Logger log = LoggerFactory.getLogger(SourceHeads.class);
    /** Items kept a source: more than a page asks for (a read that wants more goes to MySQL). */
    static final int SIZE = 200;
    private static final int SOURCES = 20_000;
    /** Well inside the stamps' lifetime, so a stamp that expired and was set again cannot meet a head older than it. */
    private static final Duration KEPT_FOR = Duration.ofHours(1);

    /**
     * A source's newest pulled items, newest first ({@code ids[i]} of media bit {@code media[i]});
     * {@code whole}: they are all it has.
     */
    record Head(String stamp, long[] ids, byte[] media, boolean whole) {

        /**
         * The item ids a descending read within these bounds would return, at most {@code limit},
         * newest first; null when the head cannot tell (the read goes past its oldest item).
         */
        @Nullable List<Long> serve(PulledTable.Bounds bounds, List<Integer> mediaBits, int limit) {
            List<Long> ids = new ArrayList<>(Math.min(limit, this.ids.length));
            for (int i = 0; i < this.ids.length && ids.size() < limit; i++) {
                long id = this.ids[i];
                if (bounds.below() != null && id >= bounds.below()) {
                    continue;
                }
                if (id < bounds.lowest() || (bounds.above() != null && id <= bounds.above())) {
                    return ids; // the range ends inside the head
                }
                if (mediaBits.contains((int) media[i])) {
                    ids.add(id);
                }
            }
            return ids.size() == limit || whole ? ids : null;
        }
    }

    private final Inbox inbox;
    private final PulledTable table;
    private final Cache<Long, Head> heads = Caffeine.newBuilder().maximumSize(SOURCES).expireAfterWrite(KEPT_FOR).build();

    SourceHeads(Inbox inbox, PulledTable table) {
        this.inbox = inbox;
        this.table = table;
    }

    /**
     * The heads of these sources as they are now: their stamps as {@code known} gives them (read
     * with the person's list of pulled sources) or else in one Redis round trip, and one statement
     * for the heads this node lacks or that changed. Empty if Redis failed (the caller reads MySQL
     * alone).
     */
    Map<Long, Head> of(List<Long> sourceIds, Map<Long, String> known) {
        List<String> stamps;
        try {
            stamps = known.keySet().containsAll(sourceIds) ? sourceIds.stream().map(known::get).toList()
                    : inbox.sourceStamps(sourceIds);
        } catch (DataAccessException e) {
            log.debug("No source stamps, pulled reads go to MySQL: {}", e.getMessage());
            return Map.of();
        }
        Map<Long, Head> current = new HashMap<>();
        Map<Long, String> stale = new HashMap<>();
        for (int i = 0; i < sourceIds.size(); i++) {
            Head head = heads.getIfPresent(sourceIds.get(i));
            if (head != null && Objects.equals(head.stamp(), stamps.get(i))) {
                current.put(sourceIds.get(i), head);
            } else {
                stale.put(sourceIds.get(i), stamps.get(i));
            }
        }
        if (!stale.isEmpty()) {
            // Read after the stamps: a change committed meanwhile moves its stamp after this read, so
            // a head that missed it is never trusted.
            Map<Long, List<long[]>> read = table.newest(List.copyOf(stale.keySet()), SIZE + 1);
            stale.forEach((sourceId, stamp) -> {
                Head head = head(stamp, read.getOrDefault(sourceId, List.of()));
                heads.put(sourceId, head);
                current.put(sourceId, head);
            });
        }
        return current;
    }

    /**
     * The ids this node's heads of these sources hold above {@code above}, newest first, at most
     * {@code limit}, whatever stamp each head was kept under: a guess at what a page will gain, to
     * read stamps for along with the page's, never an answer by itself ({@link #of} is).
     */
    List<Long> ahead(Collection<Long> sourceIds, long above, int limit) {
        List<Long> ids = new ArrayList<>();
        for (long sourceId : sourceIds) {
            Head head = heads.getIfPresent(sourceId);
            for (int i = 0; head != null && i < head.ids().length && head.ids()[i] > above; i++) {
                ids.add(head.ids()[i]);
            }
        }
        ids.sort(Comparator.reverseOrder());
        return ids.size() > limit ? List.copyOf(ids.subList(0, limit)) : ids;
    }

    private static Head head(String stamp, List<long[]> rows) {
        int size = Math.min(SIZE, rows.size());
        long[] ids = new long[size];
        byte[] media = new byte[size];
        for (int i = 0; i < size; i++) {
            ids[i] = rows.get(i)[0];
            media[i] = (byte) rows.get(i)[1];
        }
        return new Head(stamp, ids, media, rows.size() <= SIZE);
    }
}
