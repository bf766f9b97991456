package dev.tributary.api.export;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * RSS and Atom exports: {@code /feeds/users/{username}.rss|.atom} and
 * {@code /feeds/groups/{id}.rss|.atom} (public; a group's only while it is open) and
 * {@code /feeds/home.rss|.atom?token=} (the private home timeline, for feed readers, which
 * cannot send bearer tokens). Conditional requests get 304 from the ETag, or from Last-Modified
 * when it cannot hide a change ({@link FeedValidators}). Each names its WebSub hub and topic url
 * ({@code Link} headers and the document's own links): subscribers are pushed changes ({@code api.hub}).
 */
@RestController
class FeedExportController {

    /** Public feeds may be cached by shared caches briefly; readers revalidate cheaply after. */
    private static final CacheControl PUBLIC = CacheControl.maxAge(Duration.ofMinutes(5)).cachePublic();
    /** The home feed is one person's: never in a shared cache, always revalidated. */
    private static final CacheControl PRIVATE = CacheControl.noCache().cachePrivate();

    private final FeedExports exports;
    private final FeedWriter writer;
    private final FeedTopics topics;

    FeedExportController(FeedExports exports, FeedWriter writer, FeedTopics topics) {
        this.exports = exports;
        this.writer = writer;
        this.topics = topics;
    }

    @GetMapping("/feeds/users/{username:[a-z0-9_]+}.rss")
    @Operation(summary = "A person's public feed as RSS 2.0", responses = @ApiResponse(responseCode = "200",
            description = "The newest 50 entries", content = @Content(mediaType = "application/rss+xml",
                    schema = @Schema(type = "string"))))
    void userRss(@PathVariable String username, HttpServletRequest request, HttpServletResponse response) throws IOException {
        user(username, FeedFormat.RSS, request, response);
    }

    @GetMapping("/feeds/users/{username:[a-z0-9_]+}.atom")
    @Operation(summary = "A person's public feed as Atom 1.0", responses = @ApiResponse(responseCode = "200",
            description = "The newest 50 entries", content = @Content(mediaType = "application/atom+xml",
                    schema = @Schema(type = "string"))))
    void userAtom(@PathVariable String username, HttpServletRequest request, HttpServletResponse response) throws IOException {
        user(username, FeedFormat.ATOM, request, response);
    }

    @GetMapping("/feeds/groups/{id}.rss")
    @Operation(summary = "An open group's feed as RSS 2.0 (a closed group's is the 404 of none)",
            responses = @ApiResponse(responseCode = "200", description = "The newest 50 posts",
                    content = @Content(mediaType = "application/rss+xml", schema = @Schema(type = "string"))))
    void groupRss(@PathVariable String id, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        group(id, FeedFormat.RSS, request, response);
    }

    @GetMapping("/feeds/groups/{id}.atom")
    @Operation(summary = "An open group's feed as Atom 1.0 (a closed group's is the 404 of none)",
            responses = @ApiResponse(responseCode = "200", description = "The newest 50 posts",
                    content = @Content(mediaType = "application/atom+xml", schema = @Schema(type = "string"))))
    void groupAtom(@PathVariable String id, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        group(id, FeedFormat.ATOM, request, response);
    }

    @GetMapping("/feeds/home.rss")
    @Operation(summary = "The private home timeline as RSS 2.0 (token: the feed_token made by POST /api/v1/me/feed_token)",
            responses = @ApiResponse(responseCode = "200", description = "The newest 50 entries",
                    content = @Content(mediaType = "application/rss+xml", schema = @Schema(type = "string"))))
    void homeRss(@RequestParam(required = false) @Nullable String token, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        home(token, FeedFormat.RSS, request, response);
    }

    @GetMapping("/feeds/home.atom")
    @Operation(summary = "The private home timeline as Atom 1.0 (token: the feed_token made by POST /api/v1/me/feed_token)",
            responses = @ApiResponse(responseCode = "200", description = "The newest 50 entries",
                    content = @Content(mediaType = "application/atom+xml", schema = @Schema(type = "string"))))
    void homeAtom(@RequestParam(required = false) @Nullable String token, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        home(token, FeedFormat.ATOM, request, response);
    }

    private void user(String username, FeedFormat format, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        FeedExports.Export export = exports.ofUser(username).orElseThrow(() -> ApiProblem.notFound("person"));
        String self = ServletUriComponentsBuilder.fromCurrentRequestUri().replaceQuery(null).build().toUriString();
        FeedDocument document = topics.userDocument(export, base(), self);
        respond(writer.write(document, format), document, PUBLIC, request, response);
    }

    /** A closed group, a group that is not there and a path that is no id are the same 404: nothing is told. */
    private void group(String id, FeedFormat format, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        FeedExports.GroupExport export = exports.ofGroup(Ids.path(id, "group")).orElseThrow(() -> ApiProblem.notFound("group"));
        String self = ServletUriComponentsBuilder.fromCurrentRequestUri().replaceQuery(null).build().toUriString();
        FeedDocument document = topics.groupDocument(export, base(), self);
        respond(writer.write(document, format), document, PUBLIC, request, response);
    }

    /** Any token but a live one is the same 404, whatever was wrong with it. */
    private void home(@Nullable String token, FeedFormat format, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        FeedExports.Export export = exports.home(token == null ? "" : token)
                .orElseThrow(() -> ApiProblem.notFound("feed"));
        // The token presented, which was just found live: the account keeps only its hash.
        String self = ServletUriComponentsBuilder.fromCurrentRequestUri().replaceQuery(null)
                .queryParam("token", token).build().toUriString();
        FeedDocument document = topics.homeDocument(export, base(), self);
        respond(writer.write(document, format), document, PRIVATE, request, response);
    }

    /** The deployment's root as this request reached it, without a trailing slash. */
    private static String base() {
        String root = ServletUriComponentsBuilder.fromCurrentContextPath().build().toUriString();
        return root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
    }

    /**
     * Written here rather than returned: Spring's own 304 check compares If-Modified-Since at
     * one-second precision, which would hide a change made in the same second ({@link FeedValidators}).
     */
    private static void respond(RenderedFeed feed, FeedDocument document, CacheControl cache, HttpServletRequest request,
            HttpServletResponse response) throws IOException {
        // WebSub discovery (W3C WebSub 4): the hub and the topic url, as the document's links say too.
        response.addHeader(HttpHeaders.LINK, "<" + document.hubUrl() + ">; rel=\"hub\"");
        response.addHeader(HttpHeaders.LINK, "<" + document.selfUrl() + ">; rel=\"self\"");
        response.setHeader(HttpHeaders.ETAG, feed.etag());
        response.setDateHeader(HttpHeaders.LAST_MODIFIED, feed.lastModified().toEpochMilli());
        response.setHeader(HttpHeaders.CACHE_CONTROL, cache.getHeaderValue());
        if (FeedValidators.notModified(feed.etag(), feed.lastModified(), request.getHeader(HttpHeaders.IF_NONE_MATCH),
                ifModifiedSince(request))) {
            response.setStatus(HttpStatus.NOT_MODIFIED.value());
            return;
        }
        response.setContentType(feed.contentType().toString());
        response.setContentLength(feed.body().length);
        response.getOutputStream().write(feed.body());
    }

    /** The header's time, or -1 when absent or not an HTTP date (then it is ignored, as RFC 9110 says). */
    private static long ifModifiedSince(HttpServletRequest request) {
        try {
            return request.getDateHeader(HttpHeaders.IF_MODIFIED_SINCE);
        } catch (IllegalArgumentException notADate) {
            return -1;
        }
    }
}
