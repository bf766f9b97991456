package dev.tributary.api.timeline;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.security.Caller;
import dev.tributary.api.web.PageLinks;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.HomeTimeline;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's home timeline, the API's hottest read: one inbox query, one cached item multi-get
 * and one reaction-count query per page (source names are cached), whatever the page's size.
 */
@RestController
class HomeTimelineController {

    private final HomeTimeline timeline;
    private final ItemViews views;

    HomeTimelineController(HomeTimeline timeline, ItemViews views) {
        this.timeline = timeline;
        this.views = views;
    }

    @GetMapping("/api/v1/timelines/home")
    ResponseEntity<List<ItemView>> home(Caller caller,
            @RequestParam(name = "limit", required = false) @Nullable String limit,
            @RequestParam(name = "max_id", required = false) @Nullable String maxId,
            @RequestParam(name = "since_id", required = false) @Nullable String sinceId,
            @RequestParam(name = "min_id", required = false) @Nullable String minId,
            @RequestParam(name = "media", required = false) @Nullable String media,
            @RequestParam(name = "tag", required = false) @Nullable String tag,
            @RequestParam(name = "source_id", required = false) @Nullable String sourceId,
            @RequestParam(name = "unread", required = false) @Nullable String unread,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) @Nullable String ifNoneMatch) {
        TimelineQuery query = TimelineParams.query(Paging.of(limit, maxId, sinceId, minId), media, tag, sourceId, unread);
        List<TimelineEntry> entries = timeline.page(caller.userId(), query);
        List<ItemView> page = views.ofTimeline(entries);
        String etag = PageETag.of(entries, page);
        if (PageETag.matches(ifNoneMatch, etag)) {
            return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag).build();
        }
        ResponseEntity.BodyBuilder response = ResponseEntity.ok().eTag(etag);
        String links = PageLinks.header(entries.stream().map(TimelineEntry::id).toList());
        if (links != null) {
            response.header(HttpHeaders.LINK, links);
        }
        return response.body(page);
    }
}
