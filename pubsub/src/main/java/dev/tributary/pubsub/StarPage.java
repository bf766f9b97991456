package dev.tributary.pubsub;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A page of a person's starred items, newest starred first: the live ones, each with its star, and
 * the star ids the page spans (tombstoned items are left out of {@code items} but not of the span,
 * so a page of nothing but tombstones still continues to the next).
 *
 * @param newestStarId the newest star read, null for an empty page (the cursor for newer stars)
 * @param oldestStarId the oldest star read, null for an empty page (the cursor for older stars)
 */
public record StarPage(List<StarredItem> items, @Nullable Long newestStarId, @Nullable Long oldestStarId) {

    /** A starred live item and its star. */
    public record StarredItem(Star star, Stored<Item> item) {
    }

    public StarPage {
        items = List.copyOf(items);
    }
}
