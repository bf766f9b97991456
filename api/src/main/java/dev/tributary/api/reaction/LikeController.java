package dev.tributary.api.reaction;

import dev.tributary.api.web.Caller;
import dev.tributary.api.item.ItemAccess;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Likes. Both changing verbs are idempotent and answer {@code 200 {likes_count, liked}}, so a
 * client can show the new count without reading the item again; GET answers the same for a
 * client that opens an item and must show whether the reader likes it.
 */
@RestController
class LikeController {

    private final Likes likes;
    private final ItemAccess items;

    LikeController(Likes likes, ItemAccess items) {
        this.likes = likes;
        this.items = items;
    }

    @GetMapping("/api/v1/items/{id}/like")
    Likes.LikeState state(Caller caller, @PathVariable("id") String id) {
        return likes.state(items.get(caller.userId(), id).id(), caller.userId());
    }

    @PostMapping("/api/v1/items/{id}/like")
    Likes.LikeState like(Caller caller, @PathVariable("id") String id) {
        return likes.like(items.get(caller.userId(), id).id(), caller.userId());
    }

    @DeleteMapping("/api/v1/items/{id}/like")
    Likes.LikeState unlike(Caller caller, @PathVariable("id") String id) {
        return likes.unlike(items.get(caller.userId(), id).id(), caller.userId());
    }
}
