package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.Inbox;
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

    private boolean visible(long userId, Stored<Item> item) {
        Optional<Source> source = sources.find(item.body().sourceId()).map(Stored::body);
        if (source.isEmpty() || source.get().kind() != SourceKind.GROUP) {
            return true;
        }
        // A group's source is owned by the group.
        return inbox.holds(userId, item.id()) || groups.isMember(source.get().ownerId(), userId);
    }
}
