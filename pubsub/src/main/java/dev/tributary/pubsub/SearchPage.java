package dev.tributary.pubsub;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A page of search hits, best first; {@code next} continues after it (null when nothing ranks
 * lower). A page may hold fewer hits than asked and still have a next one: hits the reach rule
 * takes away after the index read are not refilled. {@code truncated}: the query's rarest term has
 * more index rows than one search reads ({@link SearchSettings#maxRowsWalked()}), so items holding
 * it beyond the newest so many were not searched and older matches may be missing.
 */
public record SearchPage(List<SearchHit> hits, @Nullable SearchCursor next, boolean truncated) {

    public SearchPage {
        hits = List.copyOf(hits);
    }
}
