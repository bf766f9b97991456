package dev.tributary.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * The RFC 8288 {@code Link} header of a page: {@code next} continues older than its last entry
 * ({@code max_id}), {@code prev} asks for what is newer than its first ({@code min_id}); other
 * parameters (filters, limit) are kept, in their order and encoding. An empty page has no links.
 */
public final class PageLinks {

    private static final Set<String> PAGING = Set.of("max_id", "since_id", "min_id");

    private PageLinks() {
    }

    /** The header value for a page whose ids are {@code newestId}..{@code oldestId}; null for an empty page. */
    public static @Nullable String header(List<Long> idsNewestFirst) {
        if (idsNewestFirst.isEmpty()) {
            return null;
        }
        return header(((ServletRequestAttributes) RequestContextHolder.currentRequestAttributes()).getRequest(), idsNewestFirst);
    }

    /** As {@link #header(List)}, for this request. */
    static String header(HttpServletRequest request, List<Long> idsNewestFirst) {
        String base = base(request);
        return link(base, "max_id", idsNewestFirst.getLast(), "next") + ", " + link(base, "min_id", idsNewestFirst.getFirst(), "prev");
    }

    /**
     * The request's URL as {@code ServletUriComponentsBuilder.fromRequest} gives it (scheme, host,
     * the port unless the scheme's default, the path and query as sent), without its paging
     * parameters and ending where the next one goes. Built by hand: that builder parsed the query
     * into a map and wrote it out again, 8 % of a kept home page's samples.
     */
    private static String base(HttpServletRequest request) {
        String scheme = request.getScheme();
        StringBuilder url = new StringBuilder(160).append(scheme).append("://").append(request.getServerName());
        int port = request.getServerPort();
        if (port > 0 && !("http".equals(scheme) && port == 80) && !("https".equals(scheme) && port == 443)) {
            url.append(':').append(port);
        }
        url.append(request.getRequestURI()).append('?');
        String query = request.getQueryString();
        if (query != null) {
            for (int start = 0; start <= query.length(); ) {
                int end = query.indexOf('&', start);
                if (end < 0) {
                    end = query.length();
                }
                String name = query.substring(start, nameEnd(query, start, end));
                if (!name.isEmpty() && !PAGING.contains(name)) {
                    url.append(query, start, end).append('&');
                }
                start = end + 1;
            }
        }
        return url.toString();
    }

    /**
     * Where the pair's name ends: at its {@code =} or the pair's end. Searched within the pair only,
     * so a query of many pairs without {@code =} costs its length, not its length squared.
     */
    private static int nameEnd(String query, int start, int end) {
        for (int i = start; i < end; i++) {
            if (query.charAt(i) == '=') {
                return i;
            }
        }
        return end;
    }

    private static String link(String base, String param, long id, String rel) {
        return "<" + base + param + "=" + Ids.format(id) + ">; rel=\"" + rel + "\"";
    }
}
