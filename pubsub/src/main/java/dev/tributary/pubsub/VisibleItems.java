package dev.tributary.pubsub;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Who may see an item one by one (to read, comment on, like, star it or find it in search): a live
 * item whose source the person may read, by {@link SourceReach}'s one rule (a closed group's items
 * only to its current members, whatever reached their inbox before). Anything else is "no such item".
 */
@Service
public class VisibleItems {

    private final Items items;
    private final Sources sources;
    private final SourceReach reach;

    VisibleItems(Items items, Sources sources, SourceReach reach) {
        this.items = items;
        this.sources = sources;
        this.reach = reach;
    }

    /** The live item if the person may see it; empty if it does not exist, is tombstoned or is not theirs to see. */
    public Optional<Stored<Item>> find(long userId, long itemId) {
        return items.find(itemId).filter(item -> readable(userId, item.body().sourceId()));
    }

    /** Those of {@code found} (live items) the person may see, in order: the same rule for a list, such as search hits. */
    List<Stored<Item>> among(long userId, List<Stored<Item>> found) {
        Map<Long, Boolean> bySource = new HashMap<>();
        return found.stream()
                .filter(item -> bySource.computeIfAbsent(item.body().sourceId(), id -> readable(userId, id)))
                .toList();
    }

    private boolean readable(long userId, long sourceId) {
        // Only a group's source is private, and a group's source is made with its group: no row, nothing to hide.
        Optional<Stored<Source>> source = sources.find(sourceId);
        return source.isEmpty() || reach.mayRead(userId, source.get().body());
    }
}
