package dev.tributary.crawler.fetch;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A 2xx or 304 response. {@code body} is decoded (gzip/deflate undone) and empty when
 * {@code notModified}. {@code movedTo} is set when every redirect on the way was permanent
 * (301/308): the url the feed should be stored under from now on.
 *
 * @param etag the response's {@code ETag}; a 304 that sends none keeps the request's
 * @param lastModified the response's {@code Last-Modified}; a 304 that sends none keeps the request's
 * @param maxAge {@code Cache-Control: max-age} (or {@code s-maxage}), if the server sent one;
 *     zero for {@code no-cache} / {@code no-store}
 * @param expires the {@code Expires} header, if parseable
 * @param finalUrl the url that answered, after redirects
 */
public record FetchResult(
        int status,
        boolean notModified,
        @Nullable String etag,
        @Nullable String lastModified,
        @Nullable Duration maxAge,
        @Nullable Instant expires,
        URI finalUrl,
        @Nullable URI movedTo,
        @Nullable String contentType,
        byte[] body,
        @Nullable String contentLocation) implements FetchOutcome {

    public FetchResult {
        Objects.requireNonNull(finalUrl, "finalUrl");
        Objects.requireNonNull(body, "body");
    }

    /**
     * What relative links in the document resolve against: its {@code Content-Location} (relative
     * ones against the final url), as mature feed parsers do, when it is a well-formed http(s) url;
     * else the url it was fetched from.
     */
    public URI documentBase() {
        if (contentLocation == null || contentLocation.isBlank() || contentLocation.length() > 2048) {
            return finalUrl;
        }
        try {
            URI base = finalUrl.resolve(new URI(contentLocation.strip()));
            String scheme = base.getScheme();
            return ("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && base.getHost() != null
                    ? base : finalUrl;
        } catch (URISyntaxException | IllegalArgumentException malformed) {
            return finalUrl;
        }
    }
}
