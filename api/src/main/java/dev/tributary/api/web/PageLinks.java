package dev.tributary.api.web;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The RFC 8288 {@code Link} header of a page: {@code next} continues older than its last entry
 * ({@code max_id}), {@code prev} asks for what is newer than its first ({@code min_id}); other
 * parameters (filters, limit) are kept. An empty page has no links.
 */
public final class PageLinks {

    private PageLinks() {
    }

    /** The header value for a page whose ids are {@code newestId}..{@code oldestId}; null for an empty page. */
    public static @Nullable String header(List<Long> idsNewestFirst) {
        if (idsNewestFirst.isEmpty()) {
            return null;
        }
        // The request's URL is parsed once for both links.
        UriComponentsBuilder base = ServletUriComponentsBuilder.fromCurrentRequest()
                .replaceQueryParam("max_id").replaceQueryParam("since_id").replaceQueryParam("min_id");
        return link(base.cloneBuilder(), "max_id", idsNewestFirst.getLast(), "next") + ", "
                + link(base, "min_id", idsNewestFirst.getFirst(), "prev");
    }

    private static String link(UriComponentsBuilder url, String param, long id, String rel) {
        return "<" + url.replaceQueryParam(param, Ids.format(id)).build().toUriString() + ">; rel=\"" + rel + "\"";
    }
}
