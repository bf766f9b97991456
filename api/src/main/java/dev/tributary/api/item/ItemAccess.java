package dev.tributary.api.item;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.VisibleItems;
import org.springframework.stereotype.Component;

/** The item a request's path names, if the caller may see it (pubsub decides); else a 404 that does not say which. */
@Component
public class ItemAccess {

    private final VisibleItems items;

    ItemAccess(VisibleItems items) {
        this.items = items;
    }

    public Stored<Item> get(long userId, String pathId) {
        return items.find(userId, Ids.path(pathId, "item")).orElseThrow(() -> ApiProblem.notFound("item"));
    }
}
