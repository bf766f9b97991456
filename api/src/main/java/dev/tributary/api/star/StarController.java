package dev.tributary.api.star;

import dev.tributary.api.item.ItemAccess;
import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.PageLinks;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.StarPage;
import dev.tributary.pubsub.Stars;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Starred items: the caller stars what they may see, and reads their starred items back newest
 * starred first, as far back as they go (stars are kept apart from the bounded home timeline). Both
 * changing verbs are idempotent and answer {@code 200 {starred}}, as likes answer theirs.
 */
@RestController
class StarController {

    /** Whether the caller has starred the item. */
    record StarState(@Schema(description = "Whether the caller has starred the item.") boolean starred) {
    }

    private final Stars stars;
    private final ItemViews views;
    private final ItemAccess items;

    StarController(Stars stars, ItemViews views, ItemAccess items) {
        this.stars = stars;
        this.views = views;
        this.items = items;
    }

    @Operation(summary = "Whether the caller has starred an item")
    @GetMapping("/api/v1/items/{id}/star")
    StarState state(Caller caller, @PathVariable("id") String id) {
        long itemId = Ids.path(id, "item");
        if (stars.isStarred(caller.userId(), itemId)) {
            return new StarState(true);
        }
        items.get(caller.userId(), id); // not starred: a 404 unless the caller may see the item
        return new StarState(false);
    }

    @Operation(summary = "Star an item",
            description = "Idempotent. The item must be one the caller may see (else 404). A person holds at most "
                    + "tributary.stars.max-per-person stars (100,000 by default); past it, 422 with reason too-many-stars.")
    @PostMapping("/api/v1/items/{id}/star")
    StarState star(Caller caller, @PathVariable("id") String id) {
        stars.star(caller.userId(), Ids.path(id, "item"));
        return new StarState(true);
    }

    @Operation(summary = "Unstar an item",
            description = "Idempotent. A starred item can be unstarred even once the caller can no longer see it.")
    @DeleteMapping("/api/v1/items/{id}/star")
    StarState unstar(Caller caller, @PathVariable("id") String id) {
        stars.unstar(caller.userId(), Ids.path(id, "item"));
        return new StarState(false);
    }

    @Operation(summary = "The caller's starred items",
            description = "Newest starred first, paged as far back as the stars go (not bounded like the home timeline). "
                    + "max_id, since_id and min_id are star cursors, not item ids: take them from the Link header. "
                    + "Tombstoned items are left out.")
    @ApiResponse(responseCode = "200", description = "The page, newest starred first",
            content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(implementation = ItemView.class))))
    @GetMapping("/api/v1/timelines/starred")
    ResponseEntity<List<ItemView>> starred(Caller caller,
            @RequestParam(name = "limit", required = false) @Nullable String limit,
            @RequestParam(name = "max_id", required = false) @Nullable String maxId,
            @RequestParam(name = "since_id", required = false) @Nullable String sinceId,
            @RequestParam(name = "min_id", required = false) @Nullable String minId) {
        Paging paging = Paging.of(limit, maxId, sinceId, minId);
        StarPage page = stars.page(caller.userId(), paging.maxId(), paging.sinceId(), paging.minId(), paging.limit());
        ResponseEntity.BodyBuilder response = ResponseEntity.ok();
        if (page.newestStarId() != null && page.oldestStarId() != null) {
            response.header(HttpHeaders.LINK, PageLinks.header(List.of(page.newestStarId(), page.oldestStarId())));
        }
        return response.body(views.ofStarred(caller.userId(),
                page.items().stream().map(StarPage.StarredItem::item).toList()));
    }
}
