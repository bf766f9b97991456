package dev.tributary.api.timeline;

import dev.tributary.api.item.ItemAccess;
import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.web.Caller;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.ItemContents;
import dev.tributary.pubsub.Stored;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** One item as the caller sees it (with their read flag), e.g. for a client opening a link to it. */
@RestController
class ItemController {

    private final ItemAccess items;
    private final ItemViews views;
    private final ItemContents contents;

    ItemController(ItemAccess items, ItemViews views, ItemContents contents) {
        this.items = items;
        this.views = views;
        this.contents = contents;
    }

    /** The item with its feed's full content: one item is opened to be read, so here, not in timelines. */
    @GetMapping("/api/v1/items/{id}")
    ItemView item(Caller caller, @PathVariable("id") String id) {
        Stored<Item> item = items.get(caller.userId(), id);
        return views.of(caller.userId(), item).withContent(contents.find(item.id()).orElse(null));
    }
}
