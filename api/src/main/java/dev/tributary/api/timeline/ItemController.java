package dev.tributary.api.timeline;

import dev.tributary.api.item.ItemAccess;
import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.web.Caller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** One item as the caller sees it (with their read flag), e.g. for a client opening a link to it. */
@RestController
class ItemController {

    private final ItemAccess items;
    private final ItemViews views;

    ItemController(ItemAccess items, ItemViews views) {
        this.items = items;
        this.views = views;
    }

    @GetMapping("/api/v1/items/{id}")
    ItemView item(Caller caller, @PathVariable("id") String id) {
        return views.of(caller.userId(), items.get(caller.userId(), id));
    }
}
