package dev.tributary.api.contract;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The response headers a client acts on, declared where the server sends them: the rate limit's
 * on every {@code /api} answer, {@code Retry-After} on 429 and 503, {@code Link} on paged lists,
 * the validators where a conditional GET is answered, {@code WWW-Authenticate} on 401 and 403,
 * {@code Accept} on 415, {@code Search-Truncated} on the search's answers.
 * Each is a component ({@code #/components/headers/...}) that the responses refer to; the test kit's
 * ResponseContract fails an answer that sends one its response does not declare or leaves out a required one.
 */
final class ResponseHeaders {

    static final String RATE_LIMIT_LIMIT = "RateLimit-Limit";
    static final String RATE_LIMIT_REMAINING = "RateLimit-Remaining";
    static final String RATE_LIMIT_RESET = "RateLimit-Reset";
    static final String RETRY_AFTER = "Retry-After";
    static final String LINK = "Link";
    /** The exports' Link headers (a component of its own: their Link is not the pages' one). */
    static final String HUB_LINKS = "HubLinks";
    static final String ETAG = "ETag";
    static final String LAST_MODIFIED = "Last-Modified";
    static final String WWW_AUTHENTICATE = "WWW-Authenticate";
    static final String CONTENT_DISPOSITION = "Content-Disposition";
    static final String ACCEPT = "Accept";
    static final String SEARCH_TRUNCATED = "Search-Truncated";
    private static final List<String> RATE_LIMIT = List.of(RATE_LIMIT_LIMIT, RATE_LIMIT_REMAINING, RATE_LIMIT_RESET);

    private ResponseHeaders() {
    }

    /** Adds the header components and refers to them from the responses that carry them. */
    static void declare(OpenAPI openApi) {
        components(openApi);
        openApi.getComponents().getResponses().forEach((name, response) -> {
            // Shared by /api and /feeds operations; the rate limit's headers are optional, so saying so here holds for both.
            RATE_LIMIT.forEach(header -> refer(response, header));
            switch (name) {
                case "TooManyRequests", "Unavailable" -> refer(response, RETRY_AFTER);
                case "Unauthorized", "Forbidden" -> refer(response, WWW_AUTHENTICATE);
                case "UnsupportedMediaType" -> refer(response, ACCEPT);
                default -> {
                }
            }
        });
        openApi.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) -> {
            Map<String, ApiResponse> own = ownResponses(operation);
            if (path.startsWith("/api/")) {
                own.values().forEach(response -> RATE_LIMIT.forEach(header -> refer(response, header)));
            }
            if (method == PathItem.HttpMethod.GET && paged(operation) && own.containsKey("200")) {
                refer(own.get("200"), LINK);
            }
            if (path.equals("/api/v1/timelines/home")) {
                validators(own, ETAG);
            } else if (path.startsWith("/feeds/")) {
                validators(own, ETAG, LAST_MODIFIED);
                if (own.containsKey("200")) {
                    own.get("200").addHeaderObject(LINK, new Header().$ref("#/components/headers/" + HUB_LINKS));
                }
            } else if (path.equals("/api/v1/subscriptions.opml") && own.containsKey("200")) {
                refer(own.get("200"), CONTENT_DISPOSITION);
            } else if (path.equals("/api/v1/search") && own.containsKey("200")) {
                refer(own.get("200"), SEARCH_TRUNCATED);
            }
        }));
    }

    private static void components(OpenAPI openApi) {
        openApi.getComponents()
                .addHeaders(RATE_LIMIT_LIMIT, integer("The requests allowed per window (per token, or per address without one)"))
                .addHeaders(RATE_LIMIT_REMAINING, integer("The requests left in this window"))
                .addHeaders(RATE_LIMIT_RESET, integer("Seconds until the window starts again"))
                .addHeaders(RETRY_AFTER, integer("Seconds to wait before trying again").required(true))
                .addHeaders(LINK, text("RFC 8288 links to the next (older) and previous (newer) pages; absent on an "
                        + "empty page (a member list has only next, and only when the page is full)"))
                .addHeaders(HUB_LINKS, text("WebSub discovery (two Link headers): <the hub>; rel=\"hub\" and "
                        + "<the feed's own url, its topic>; rel=\"self\"").required(true))
                .addHeaders(ETAG, text("The validator to send back as If-None-Match").required(true))
                .addHeaders(LAST_MODIFIED, text("When the newest entry changed (an HTTP date), for If-Modified-Since")
                        .required(true))
                .addHeaders(WWW_AUTHENTICATE, text("The scheme to use (RFC 6750: Bearer, with error=\"invalid_token\" or "
                        + "error=\"insufficient_scope\"; Basic for token creation)"))
                .addHeaders(CONTENT_DISPOSITION, text("attachment, with the file name to save as"))
                .addHeaders(ACCEPT, text("The content types the operation reads (RFC 9110 §15.5.16)"))
                .addHeaders(SEARCH_TRUNCATED, new Header().description("true when the search read only the newest "
                        + "20,000 (tributary.search.max-rows-walked) index rows of the query's rarest word and it has more: "
                        + "older matches may be missing (add a word or a filter); else false")
                        .schema(new StringSchema()._enum(List.of("true", "false"))).required(true));
    }

    /** The operation's responses written in place; those that refer to a component get their headers there. */
    private static Map<String, ApiResponse> ownResponses(Operation operation) {
        Map<String, ApiResponse> own = new LinkedHashMap<>();
        if (operation.getResponses() != null) {
            operation.getResponses().forEach((status, response) -> {
                if (response.get$ref() == null) {
                    own.put(status, response);
                }
            });
        }
        return own;
    }

    /** A list read page by page: it takes {@code limit}, and its answers link to the next page. */
    private static boolean paged(Operation operation) {
        return operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> "query".equals(p.getIn()) && "limit".equals(p.getName()));
    }

    private static void validators(Map<String, ApiResponse> own, String... headers) {
        for (String status : List.of("200", "304")) {
            ApiResponse response = own.get(status);
            if (response != null) {
                for (String header : headers) {
                    refer(response, header);
                }
            }
        }
    }

    private static void refer(ApiResponse response, String header) {
        response.addHeaderObject(header, new Header().$ref("#/components/headers/" + header));
    }

    private static Header integer(String description) {
        return new Header().description(description).schema(new IntegerSchema());
    }

    private static Header text(String description) {
        return new Header().description(description).schema(new StringSchema());
    }
}
