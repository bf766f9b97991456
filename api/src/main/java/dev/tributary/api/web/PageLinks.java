package dev.tributary.api.web;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

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
        List<String> links = new ArrayList<>(2);
        links.add(link("max_id", idsNewestFirst.getLast(), "next"));
        links.add(link("min_id", idsNewestFirst.getFirst(), "prev"));
        return String.join(", ", links);
    }

    private static String link(String param, long id, String rel) {
        String url = ServletUriComponentsBuilder.fromCurrentRequest()
                .replaceQueryParam("max_id").replaceQueryParam("since_id").replaceQueryParam("min_id")
                .replaceQueryParam(param, Ids.format(id))
                .build().toUriString();
        return "<" + url + ">; rel=\"" + rel + "\"";
    }
}
