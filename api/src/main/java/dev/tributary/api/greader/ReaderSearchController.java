package dev.tributary.api.greader;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Caller;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.InvalidSearchException;
import dev.tributary.pubsub.ItemSearch;
import dev.tributary.pubsub.SearchHit;
import dev.tributary.pubsub.SearchQuery;
import dev.tributary.pubsub.SearchText;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Google Reader's search, {@code search/items/ids?q=…&num=…&s=…}, as Reeder, Vienna and other
 * Google Reader clients call it: the ids of the best {@code num} hits (at most
 * {@value SearchQuery#MAX_LIMIT}) as {@code {"results":[{"id":"<decimal>"}]}}, which the app then
 * reads with {@code stream/items/contents}. {@code s} narrows to a feed or a label; any other
 * stream searches the whole reach, as {@code /api/v1/search} does.
 */
@RestController
@RequestMapping("/reader/api/0")
class ReaderSearchController {

    private final ItemSearch search;
    private final ReaderFeeds feeds;
    private final ReaderStreams streams;
    private final Folders folders;

    ReaderSearchController(ItemSearch search, ReaderFeeds feeds, ReaderStreams streams, Folders folders) {
        this.search = search;
        this.feeds = feeds;
        this.streams = streams;
        this.folders = folders;
    }

    @RequestMapping(path = "/search/items/ids", method = {RequestMethod.GET, RequestMethod.POST})
    ResponseEntity<String> ids(@RequestAttribute(ReaderRequests.CALLER) Caller caller,
            @RequestParam MultiValueMap<String, String> params) {
        SearchText text = text(params.getFirst("q"));
        String num = params.getFirst("num") != null ? params.getFirst("num") : params.getFirst("n");
        int limit = num == null || num.isBlank() ? 20 : (int) Math.min(StreamQuery.number("num", num), SearchQuery.MAX_LIMIT);
        if (limit < 1) {
            throw ApiProblem.invalid("num", "must be a positive number");
        }
        Set<Long> sources = sources(caller.userId(), params.getFirst("s"));
        List<SearchHit> hits;
        try {
            hits = search.search(caller.userId(), new SearchQuery(text, limit, null, null, null, sources, false)).hits();
        } catch (InvalidSearchException e) {
            // A prefix that stands for too many indexed words is known only once the index is read.
            throw problem(e);
        }
        StringBuilder json = new StringBuilder(16 + hits.size() * 30).append("{\"results\":[");
        for (int i = 0; i < hits.size(); i++) {
            json.append(i == 0 ? "{\"id\":\"" : ",{\"id\":\"").append(hits.get(i).item().id()).append("\"}");
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(json.append("]}").toString());
    }

    private @Nullable Set<Long> sources(long userId, @Nullable String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        return switch (StreamId.parse("s", s)) {
            case StreamId.Label label -> folders.sourcesIn(userId, streams.folder(userId, label.name()).id());
            case StreamId.Feed feed -> Set.of(feeds.subscribedSource(userId, feed.url())
                    .orElseThrow(() -> ApiProblem.notFound("feed among your subscriptions")));
            default -> null;
        };
    }

    private static SearchText text(@Nullable String q) {
        try {
            return SearchText.parse(q == null ? "" : q);
        } catch (InvalidSearchException e) {
            throw problem(e);
        }
    }

    private static ApiProblem problem(InvalidSearchException e) {
        ApiProblem problem = ApiProblem.invalid("q", e.problem());
        problem.getBody().setProperty("reason", e.reason().wireName());
        return problem;
    }
}
