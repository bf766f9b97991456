package dev.tributary.api.export;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.api.web.Ids;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/**
 * RSS and Atom exports: {@code /feeds/users/{username}.rss|.atom} (public) and
 * {@code /feeds/home.rss|.atom?token=} (the private home timeline, for feed readers, which
 * cannot send bearer tokens). Conditional requests get 304 from the ETag or Last-Modified.
 */
@RestController
class FeedExportController {

    /** Public feeds may be cached by shared caches briefly; readers revalidate cheaply after. */
    private static final CacheControl PUBLIC = CacheControl.maxAge(Duration.ofMinutes(5)).cachePublic();
    /** The home feed is one person's: never in a shared cache, always revalidated. */
    private static final CacheControl PRIVATE = CacheControl.noCache().cachePrivate();

    private final FeedExports exports;
    private final FeedWriter writer;

    FeedExportController(FeedExports exports, FeedWriter writer) {
        this.exports = exports;
        this.writer = writer;
    }

    @GetMapping("/feeds/users/{username:[a-z0-9_]+}.rss")
    @Operation(summary = "A person's public feed as RSS 2.0", responses = @ApiResponse(responseCode = "200",
            description = "The newest 50 entries", content = @Content(mediaType = "application/rss+xml",
                    schema = @Schema(type = "string"))))
    ResponseEntity<byte[]> userRss(@PathVariable String username) {
        return user(username, FeedFormat.RSS);
    }

    @GetMapping("/feeds/users/{username:[a-z0-9_]+}.atom")
    @Operation(summary = "A person's public feed as Atom 1.0", responses = @ApiResponse(responseCode = "200",
            description = "The newest 50 entries", content = @Content(mediaType = "application/atom+xml",
                    schema = @Schema(type = "string"))))
    ResponseEntity<byte[]> userAtom(@PathVariable String username) {
        return user(username, FeedFormat.ATOM);
    }

    @GetMapping("/feeds/home.rss")
    @Operation(summary = "The private home timeline as RSS 2.0 (token: the feed_token of /api/v1/me)",
            responses = @ApiResponse(responseCode = "200", description = "The newest 50 entries",
                    content = @Content(mediaType = "application/rss+xml", schema = @Schema(type = "string"))))
    ResponseEntity<byte[]> homeRss(@RequestParam(required = false) @Nullable String token) {
        return home(token, FeedFormat.RSS);
    }

    @GetMapping("/feeds/home.atom")
    @Operation(summary = "The private home timeline as Atom 1.0 (token: the feed_token of /api/v1/me)",
            responses = @ApiResponse(responseCode = "200", description = "The newest 50 entries",
                    content = @Content(mediaType = "application/atom+xml", schema = @Schema(type = "string"))))
    ResponseEntity<byte[]> homeAtom(@RequestParam(required = false) @Nullable String token) {
        return home(token, FeedFormat.ATOM);
    }

    private ResponseEntity<byte[]> user(String username, FeedFormat format) {
        FeedExports.Export export = exports.ofUser(username).orElseThrow(() -> ApiProblem.notFound("person"));
        String name = export.account().body().username();
        String self = ServletUriComponentsBuilder.fromCurrentRequestUri().replaceQuery(null).build().toUriString();
        FeedDocument document = new FeedDocument("urn:tributary:feed:user:" + Ids.format(export.account().id()),
                name + " on Tributary", site(), self, "What " + name + " posts and follows on their profile.",
                export.account().body().createdAt(), export.items());
        return respond(writer.write(document, format), PUBLIC);
    }

    /** Any token but a live one is the same 404, whatever was wrong with it. */
    private ResponseEntity<byte[]> home(@Nullable String token, FeedFormat format) {
        FeedExports.Export export = exports.home(token == null ? "" : token)
                .orElseThrow(() -> ApiProblem.notFound("feed"));
        String self = ServletUriComponentsBuilder.fromCurrentRequestUri().replaceQuery(null)
                .queryParam("token", export.account().body().feedToken()).build().toUriString();
        FeedDocument document = new FeedDocument("urn:tributary:feed:home:" + Ids.format(export.account().id()),
                export.account().body().username() + "'s home on Tributary", site(), self,
                "The newest entries of " + export.account().body().username() + "'s home timeline.",
                export.account().body().createdAt(), export.items());
        return respond(writer.write(document, format), PRIVATE);
    }

    private static String site() {
        return ServletUriComponentsBuilder.fromCurrentContextPath().path("/").build().toUriString();
    }

    /** Spring answers 304 itself when the request's validators match the ones set here. */
    private static ResponseEntity<byte[]> respond(RenderedFeed feed, CacheControl cache) {
        return ResponseEntity.ok()
                .contentType(feed.contentType())
                .eTag(feed.etag())
                .lastModified(feed.lastModified())
                .cacheControl(cache)
                .body(feed.body());
    }
}
