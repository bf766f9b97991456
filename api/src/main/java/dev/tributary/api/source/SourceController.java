package dev.tributary.api.source;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.SourceReach;
import dev.tributary.pubsub.Stored;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A source and its items, if the caller may read them ({@link SourceReach}): feeds, people and open
 * groups are anyone's; a closed group's source is its members' alone, and to anyone else a 404 like
 * a source that does not exist.
 */
@RestController
class SourceController {

    private final SourceReach reach;
    private final SourceViews views;
    private final SourcePages pages;

    SourceController(SourceReach reach, SourceViews views, SourcePages pages) {
        this.reach = reach;
        this.views = views;
        this.pages = pages;
    }

    @GetMapping("/api/v1/sources/{id}")
    SourceView source(Caller caller, @PathVariable String id) {
        return views.of(find(caller, id));
    }

    @GetMapping("/api/v1/sources/{id}/items")
    ResponseEntity<List<ItemView>> items(Caller caller, @PathVariable String id,
            @RequestParam(required = false) String limit, @RequestParam(name = "max_id", required = false) String maxId,
            @RequestParam(name = "since_id", required = false) String sinceId,
            @RequestParam(name = "min_id", required = false) String minId) {
        Paging paging = Paging.of(limit, maxId, sinceId, minId);
        return pages.response(caller.userId(), List.of(find(caller, id).id()), paging);
    }

    private Stored<Source> find(Caller caller, String id) {
        long sourceId = Ids.path(id, "source");
        return reach.find(caller.userId(), sourceId).orElseThrow(() -> ApiProblem.notFound("source"));
    }
}
