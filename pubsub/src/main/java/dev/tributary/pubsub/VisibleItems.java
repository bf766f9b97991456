package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.Inbox;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Who may see an item one by one (to read, comment on or like it): every live item of a feed or
 * a person, and a group's items for its members and for whoever has them in their inbox already
 * (a former member keeps their history). Anything else is "no such item".
 */
@Service
public class VisibleItems {

    private final Items items;
    private final Sources sources;
    private final Groups groups;
    private final Inbox inbox;

    VisibleItems(Items items, Sources sources, Groups groups, Inbox inbox) {
        this.items = items;
        this.sources = sources;
        this.groups = groups;
        this.inbox = inbox;
    }

    /** The live item if the person may see it; empty if it does not exist, is tombstoned or is not theirs to see. */
    public Optional<Stored<Item>> find(long userId, long itemId) {
        return items.find(itemId).filter(item -> visible(userId, item));
    }

    /** Those of {@code found} (live items) the person may see, in order: the same rule for a list, such as search hits. */
    List<Stored<Item>> among(long userId, List<Stored<Item>> found) {
        Map<Long, Optional<Source>> bySource = new HashMap<>();
        return found.stream()
                .filter(item -> visible(userId, item, bySource.computeIfAbsent(item.body().sourceId(),
                        id -> sources.find(id).map(Stored::body))))
                .toList();
    }

    private boolean visible(long userId, Stored<Item> item) {
        return visible(userId, item, sources.find(item.body().sourceId()).map(Stored::body));
    }

    private boolean visible(long userId, Stored<Item> item, Optional<Source> source) {
        if (source.isEmpty() || source.get().kind() != SourceKind.GROUP) {
            return true;
        }
        // A group's source is owned by the group.
        return inbox.holds(userId, item.id()) || groups.isMember(source.get().ownerId(), userId);
    }
}
