package dev.tributary.api.operate;

import dev.tributary.api.web.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Guards the management port's writes ({@code POST /actuator/switches/…}, loggers) against
 * browsers: the port listens on loopback, but a page open in a browser on the host can reach
 * loopback too. A cross-site page's request carries an {@code Origin} header, and without a CORS
 * preflight (which nothing here answers) it can only send a "simple" content type, never
 * {@code application/json}. So a write must name a JSON content type and carry no {@code Origin};
 * curl and operators' tools send neither header unless told to, and one {@code -H} adds the first.
 */
final class ManagementWrites extends OncePerRequestFilter {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private final ProblemWriter problems;

    ManagementWrites(ProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return SAFE_METHODS.contains(request.getMethod());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getHeader("Origin") != null) {
            problems.write(request, response, HttpStatus.FORBIDDEN, "forbidden",
                    "The management port takes no requests from web pages (this one carries an Origin header).");
            return;
        }
        if (!json(request.getContentType())) {
            problems.write(request, response, HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type",
                    "A change on the management port needs Content-Type: application/json (the body may be empty), "
                            + "which a web page cannot send without a preflight.");
            return;
        }
        chain.doFilter(request, response);
    }

    /** application/json or a +json type such as actuator's own; a browser's simple types never match. */
    static boolean json(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return false;
        }
        try {
            MediaType type = MediaType.parseMediaType(contentType);
            return type.getType().equals("application")
                    && (type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"));
        } catch (InvalidMediaTypeException malformed) {
            return false;
        }
    }
}
