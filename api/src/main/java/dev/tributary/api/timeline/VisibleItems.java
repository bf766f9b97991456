package dev.tributary.api.timeline;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Groups;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.ReadState;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceKind;
import dev.tributary.pubsub.Sources;
import dev.tributary.storage.Entity;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The items a person may see one by one (to read, comment on or like): every live item of a
 * feed or a person, and a group's items for its members and for whoever has them in their
 * inbox already (a former member keeps their history). Anything else is "no such item".
 */
@Component
public class VisibleItems {

    private final Items items;
    private final Sources sources;
    private final Groups groups;
    private final ReadState readState;

    VisibleItems(Items items, Sources sources, Groups groups, ReadState readState) {
        this.items = items;
        this.sources = sources;
        this.groups = groups;
        this.readState = readState;
    }

    /** The live item if the person may see it; empty if it does not exist, is tombstoned or is not theirs to see. */
    public Optional<Entity<Item>> find(long userId, long itemId) {
        return items.find(itemId).filter(item -> visible(userId, item));
    }

    /** The item a path names, if the person may see it; else a 404 that does not say which it was. */
    public Entity<Item> get(long userId, String pathId) {
        return find(userId, Ids.path(pathId, "item")).orElseThrow(() -> ApiProblem.notFound("item"));
    }

    private boolean visible(long userId, Entity<Item> item) {
        Optional<Source> source = sources.find(item.body().sourceId()).map(Entity::body);
        if (source.isEmpty() || source.get().kind() != SourceKind.GROUP) {
            return true;
        }
        // A group's source is owned by the group.
        return readState.inInbox(userId, item.id()) || groups.isMember(source.get().ownerId(), userId);
    }
}
