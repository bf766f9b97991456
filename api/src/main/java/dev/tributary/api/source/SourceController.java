package dev.tributary.api.source;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.Source;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Stored;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Any source and its items: feeds, people and groups are all public to read. */
@RestController
class SourceController {

    private final Sources sources;
    private final SourceViews views;
    private final SourcePages pages;

    SourceController(Sources sources, SourceViews views, SourcePages pages) {
        this.sources = sources;
        this.views = views;
        this.pages = pages;
    }

    @GetMapping("/api/v1/sources/{id}")
    SourceView source(@PathVariable String id) {
        return views.of(find(id));
    }

    @GetMapping("/api/v1/sources/{id}/items")
    ResponseEntity<List<ItemView>> items(Caller caller, @PathVariable String id,
            @RequestParam(required = false) String limit, @RequestParam(name = "max_id", required = false) String maxId,
            @RequestParam(name = "since_id", required = false) String sinceId,
            @RequestParam(name = "min_id", required = false) String minId) {
        Paging paging = Paging.of(limit, maxId, sinceId, minId);
        return pages.response(caller.userId(), List.of(find(id).id()), paging);
    }

    private Stored<Source> find(String id) {
        long sourceId = Ids.path(id, "source");
        return sources.find(sourceId).orElseThrow(() -> ApiProblem.notFound("source"));
    }
}
