package dev.tributary.pubsub;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A page of search hits, best first; {@code next} continues after it (null when nothing ranks
 * lower). A page may hold fewer hits than asked and still have a next one: hits the reach rule
 * takes away after the index read are not refilled.
 */
public record SearchPage(List<SearchHit> hits, @Nullable SearchCursor next) {

    public SearchPage {
        hits = List.copyOf(hits);
    }
}
