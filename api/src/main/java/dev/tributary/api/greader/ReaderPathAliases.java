package dev.tributary.api.greader;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The paths apps use for the Google Reader and Fever APIs besides Tributary's own, folded into
 * the canonical ones before anything else sees the request (security, rate limits, handlers), so
 * they are authenticated and counted exactly as the canonical ones:
 * <ul>
 * <li>{@code /api/greader.php/…}: FreshRSS's, which apps' "FreshRSS" account types append
 * (RSS Guard, NetNewsWire, ReadYou, newsboat's {@code freshrss} source);</li>
 * <li>{@code /api/fever.php}: FreshRSS's Fever endpoint (Reeder, Unread, FluentReader);</li>
 * <li>a doubled slash before {@code accounts/ClientLogin} and {@code reader/}: a server address
 * typed with a trailing slash, as newsboat's documentation shows it ({@code feedhq-url}).</li>
 * </ul>
 * Only the path changes (the query string and body stay), and only for these prefixes; this is
 * not a forward, so the request goes through the security filters once, under its canonical path.
 */
final class ReaderPathAliases extends OncePerRequestFilter {

    private static final Pattern GREADER = Pattern.compile("^/+(?:api/greader\\.php/+)?(accounts/ClientLogin(?:$|[/?])|reader/)");
    private static final Pattern FEVER = Pattern.compile("^/+api/fever\\.php/?$");

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String canonical = canonical(request.getRequestURI().substring(request.getContextPath().length()));
        chain.doFilter(canonical == null ? request : new Aliased(request, canonical), response);
    }

    /** The canonical path of an aliased one (raw, as in the request line); null when it is not an alias. */
    static @Nullable String canonical(String rawPath) {
        if (FEVER.matcher(rawPath).matches()) {
            return "/fever/";
        }
        Matcher greader = GREADER.matcher(rawPath);
        if (!greader.find() || greader.start(1) == 1) {
            return null; // already canonical
        }
        return "/" + rawPath.substring(greader.start(1));
    }

    /** The request under its canonical path. The servlet path is the decoded form Tomcat gives, under the same fold. */
    private static final class Aliased extends HttpServletRequestWrapper {

        private final String uri;
        private final String servletPath;

        Aliased(HttpServletRequest request, String canonicalPath) {
            super(request);
            this.uri = request.getContextPath() + canonicalPath;
            String decoded = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
            String folded = canonical(decoded);
            this.servletPath = folded != null ? folded : decoded;
        }

        @Override
        public String getRequestURI() {
            return uri;
        }

        @Override
        public StringBuffer getRequestURL() {
            StringBuffer url = new StringBuffer();
            url.append(getScheme()).append("://").append(getServerName());
            int port = getServerPort();
            if (port > 0 && !(("http".equals(getScheme()) && port == 80) || ("https".equals(getScheme()) && port == 443))) {
                url.append(':').append(port);
            }
            return url.append(uri);
        }

        @Override
        public String getServletPath() {
            return servletPath;
        }

        @Override
        public @Nullable String getPathInfo() {
            return null;
        }
    }
}
