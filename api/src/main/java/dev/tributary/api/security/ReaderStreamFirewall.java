package dev.tributary.api.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.springframework.security.web.firewall.FirewalledRequest;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.stereotype.Component;

/**
 * Spring Security's strict firewall everywhere, except that the Google Reader routes that carry a
 * stream id in their path ({@code stream/contents/<id>}, {@code reader/atom/<id>}) may hold encoded
 * slashes, double slashes and encoded percent signs: newsboat sends
 * {@code feed%2Fhttp%3A%2F%2Fhost%2Ffeed.xml}, libgreader {@code feed/http%3A//host/feed.xml},
 * others the raw {@code feed/http://host/feed.xml}. The id is decoded once from the raw path and
 * parsed like {@code s=}; the routes' handlers never map it to a file or another path. Paths are
 * checked after {@code ReaderPathAliases} has folded {@code /api/greader.php} and doubled slashes away.
 */
@Component
class ReaderStreamFirewall implements HttpFirewall {

    /** Where a stream id may follow in the path. */
    static final List<String> STREAM_PATHS = List.of("/reader/api/0/stream/contents/", "/reader/atom/");

    private final StrictHttpFirewall strict = new StrictHttpFirewall();
    private final StrictHttpFirewall streams = new StrictHttpFirewall();

    ReaderStreamFirewall() {
        streams.setAllowUrlEncodedSlash(true);
        streams.setAllowUrlEncodedDoubleSlash(true);
        streams.setAllowUrlEncodedPercent(true);
    }

    @Override
    public FirewalledRequest getFirewalledRequest(HttpServletRequest request) throws RequestRejectedException {
        return (carriesStreamId(request) ? streams : strict).getFirewalledRequest(request);
    }

    @Override
    public HttpServletResponse getFirewalledResponse(HttpServletResponse response) {
        return strict.getFirewalledResponse(response);
    }

    private static boolean carriesStreamId(HttpServletRequest request) {
        String uri = request.getRequestURI();
        String context = request.getContextPath();
        if (uri == null || context == null || !uri.startsWith(context)) {
            return false;
        }
        String path = uri.substring(context.length());
        for (String prefix : STREAM_PATHS) {
            if (path.startsWith(prefix) && path.length() > prefix.length()) {
                return true;
            }
        }
        return false;
    }
}
