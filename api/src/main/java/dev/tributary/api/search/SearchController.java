package dev.tributary.api.search;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Ids;
import dev.tributary.api.web.Paging;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.InvalidSearchException;
import dev.tributary.pubsub.ItemSearch;
import dev.tributary.pubsub.SearchHit;
import dev.tributary.pubsub.SearchPage;
import dev.tributary.pubsub.SearchQuery;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * {@code GET /api/v1/search}: the items in the caller's reach that hold every word of {@code q},
 * best first, with the home timeline's filters; the next page by {@code cursor} (in the Link header).
 */
@RestController
class SearchController {

    /** Says whether the cap on the rows one search reads cut this one (SearchSettings.maxRowsWalked). */
    static final String TRUNCATED = "Search-Truncated";

    private final ItemSearch search;
    private final ItemViews views;
    private final Folders folders;

    SearchController(ItemSearch search, ItemViews views, Folders folders) {
        this.search = search;
        this.views = views;
        this.folders = folders;
    }

    @GetMapping("/api/v1/search")
    @Operation(summary = "Search the items in the caller's reach",
            description = "Items of the caller's subscriptions (as far back as each source goes), of their inbox and their "
                    + "stars that hold every word of q. Words are analysed alike in items and queries: case and width folded, "
                    + "accents folded to ASCII (cafe finds café), English words stemmed (run finds runs and running); Chinese, "
                    + "Japanese, Korean, Thai, Lao, Khmer and Myanmar text matched by character pairs. "
                    + "Syntax: words (all must match); \"a phrase\" in double quotes (its words adjacent and in order, in the "
                    + "title or in the summary); a word ending in * is a prefix (aggregat* finds aggregator and aggregation: at "
                    + "least 3 letters before the *, at most 4 such words, each standing for at most 20 indexed words). "
                    + "Ranked by relevance (title matches weigh more than summary ones), then newest first. "
                    + "A story several feeds carry is one hit: the caller's entry of it, as the timeline shows it (with also_in), "
                    + "with its read and starred state. "
                    + "q: 1 to 500 characters with at most 16 distinct words (a phrase's words and each * word count), else 400 "
                    + "with reason empty_query, query_too_long or too_many_terms; also 400 with reason invalid_characters "
                    + "(control characters), unbalanced_quote, misplaced_wildcard (a * not ending a word, inside quotes or after "
                    + "CJK or Thai text), prefix_too_short, prefix_too_broad or too_many_prefixes; the detail says what is allowed. "
                    + "A page of a phrase query checks at most 400 candidates' text and may end short with a next link. "
                    + "The next page: the Link header's rel=\"next\" URL, which carries cursor. "
                    + "Search-Truncated: true when the search read only the newest 20,000 index rows of the query's rarest "
                    + "word (or of a prefix's words together) and it has more (older matches may be missing).")
    @ApiResponse(responseCode = "200", description = "The hits, best first",
            content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(implementation = ItemView.class))))
    ResponseEntity<List<ItemView>> search(Caller caller,
            @RequestParam(name = "q", required = false) @Nullable String q,
            @RequestParam(name = "limit", required = false) @Nullable String limit,
            @RequestParam(name = "cursor", required = false) @Nullable String cursor,
            @RequestParam(name = "media", required = false) @Nullable String media,
            @RequestParam(name = "tag", required = false) @Nullable String tag,
            @RequestParam(name = "source_id", required = false) @Nullable String sourceId,
            @RequestParam(name = "folder_id", required = false) @Nullable String folderId,
            @RequestParam(name = "unread", required = false) @Nullable String unread) {
        SearchParams params = SearchParams.of(q, Paging.of(limit, null, null, null).limit(), cursor, media, tag, unread);
        Long source = Ids.optional("source_id", sourceId);
        Long folder = Ids.optional("folder_id", folderId);
        if (source != null && folder != null) {
            throw ApiProblem.invalid("folder_id", "cannot be given with source_id");
        }
        Set<Long> sources = source != null ? Set.of(source) : null;
        if (folder != null) {
            if (folders.find(caller.userId(), folder).isEmpty()) {
                throw ApiProblem.notFound("folder");
            }
            sources = folders.sourcesIn(caller.userId(), folder);
        }
        SearchQuery query = params.query(sources);
        SearchPage page;
        try {
            page = search.search(caller.userId(), query);
        } catch (InvalidSearchException e) {
            // A prefix that stands for too many indexed words is known only once the index is read.
            throw SearchParams.problem(e);
        }
        List<ItemView> body = views.of(caller.userId(), page.hits().stream().map(SearchHit::item).toList());
        ResponseEntity.BodyBuilder response = ResponseEntity.ok().header(TRUNCATED, Boolean.toString(page.truncated()));
        if (page.next() != null) {
            String next = ServletUriComponentsBuilder.fromCurrentRequest()
                    .replaceQueryParam("cursor", page.next().toString()).build().toUriString();
            response.header(HttpHeaders.LINK, "<" + next + ">; rel=\"next\"");
        }
        return response.body(body);
    }
}
