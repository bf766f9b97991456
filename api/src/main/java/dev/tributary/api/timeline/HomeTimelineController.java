package dev.tributary.api.timeline;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.PageLinks;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The caller's home timeline, the API's hottest read. The newest page without filters (what
 * clients poll) comes from {@link NewestPages}, checked with one Redis round trip; any other page
 * costs one inbox query, one cached item multi-get and one reaction-count query, whatever its size.
 */
@RestController
class HomeTimelineController {

    private final HomeFeed timeline;
    private final ItemViews views;
    private final NewestPages newest;
    private final Folders folders;

    HomeTimelineController(HomeFeed timeline, ItemViews views, NewestPages newest, Folders folders) {
        this.folders = folders;
        this.timeline = timeline;
        this.views = views;
        this.newest = newest;
    }

    @GetMapping("/api/v1/timelines/home")
    @Operation(summary = "The home timeline",
            description = "Without unread, source_id or folder_id: the newest tributary.timeline.max-entries (800) entries of the inbox, "
                    + "paged inside that window and no further. With unread=true, source_id or folder_id (the sources filed in one "
                    + "of the caller's folders; another person's is a 404) (media and tag may be added): "
                    + "the whole unread horizon (tributary.inbox.keep, at most tributary.inbox.max-entries), paged by max_id, "
                    + "so that every entry counted by /api/v1/unread can be listed.")
    @ApiResponse(responseCode = "200", description = "The page, newest first",
            content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(implementation = ItemView.class))))
    ResponseEntity<?> home(Caller caller,
            @RequestParam(name = "limit", required = false) @Nullable String limit,
            @RequestParam(name = "max_id", required = false) @Nullable String maxId,
            @RequestParam(name = "since_id", required = false) @Nullable String sinceId,
            @RequestParam(name = "min_id", required = false) @Nullable String minId,
            @RequestParam(name = "media", required = false) @Nullable String media,
            @RequestParam(name = "tag", required = false) @Nullable String tag,
            @RequestParam(name = "source_id", required = false) @Nullable String sourceId,
            @RequestParam(name = "unread", required = false) @Nullable String unread,
            @RequestParam(name = "folder_id", required = false) @Nullable String folderId,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) @Nullable String ifNoneMatch) {
        TimelineQuery query = TimelineParams.query(Paging.of(limit, maxId, sinceId, minId), media, tag, sourceId, unread);
        Long folder = Ids.optional("folder_id", folderId);
        if (folder != null) {
            if (folders.find(caller.userId(), folder).isEmpty()) {
                throw ApiProblem.notFound("folder");
            }
            query = query.withSources(folders.sourcesIn(caller.userId(), folder));
        }
        if (query.isNewest()) {
            NewestPages.Page page = newest.newest(caller.userId(), query.limit());
            if (PageETag.matches(ifNoneMatch, page.etag())) {
                return notModified(page.etag());
            }
            return ok(page.etag(), page.ids()).contentType(MediaType.APPLICATION_JSON).body(page.json());
        }
        List<TimelineEntry> entries = timeline.page(caller.userId(), query);
        List<ItemView> page = views.ofTimeline(caller.userId(), entries);
        String etag = PageETag.of(entries, page);
        if (PageETag.matches(ifNoneMatch, etag)) {
            return notModified(etag);
        }
        return ok(etag, entries.stream().map(TimelineEntry::id).toList()).body(page);
    }

    private static ResponseEntity<?> notModified(String etag) {
        return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag).build();
    }

    /** 200 with the validator and the Link header. */
    private static ResponseEntity.BodyBuilder ok(String etag, List<Long> ids) {
        ResponseEntity.BodyBuilder response = ResponseEntity.ok().eTag(etag);
        String links = PageLinks.header(ids);
        if (links != null) {
            response.header(HttpHeaders.LINK, links);
        }
        return response;
    }
}
