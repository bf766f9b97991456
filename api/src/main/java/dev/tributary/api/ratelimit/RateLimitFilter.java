package dev.tributary.api.ratelimit;

import dev.tributary.api.web.Caller;
import dev.tributary.api.security.CallerAuthentication;
import dev.tributary.api.web.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Limits API requests per token (per person for the web front end's session), and per client
 * address for the open endpoints (account creation, app registration, token creation). It runs
 * after Spring Security, so it knows whether the token was valid; every answer carries
 * {@code RateLimit-Limit}, {@code RateLimit-Remaining} and {@code RateLimit-Reset}, and one over
 * the limit is a 429 with {@code Retry-After}. When Redis cannot be reached, requests go through
 * uncounted: an outage of the counter must not become an outage of the API.
 */
class RateLimitFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(RateLimitFilter.class);
    private static final long LOG_EVERY_MILLIS = 60_000;

    private final Buckets buckets;
    private final RateLimitSettings settings;
    private final ProblemWriter problems;
    private final AtomicLong lastWarning = new AtomicLong(Long.MIN_VALUE / 2);

    RateLimitFilter(Buckets buckets, RateLimitSettings settings, ProblemWriter problems) {
        this.buckets = buckets;
        this.settings = settings;
        this.problems = problems;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // CORS preflights are the browser's, not the client's requests.
        return !settings.enabled() || "OPTIONS".equals(request.getMethod());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Bucket bucket = take(request);
        if (bucket != null) {
            headers(response, bucket);
            if (bucket.exceeded()) {
                problems.write(request, response, HttpStatus.TOO_MANY_REQUESTS, "too-many-requests",
                        "Over the limit of " + bucket.limit() + " requests per " + settings.window().toSeconds()
                                + " s; try again in " + bucket.resetSeconds() + " s.");
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /** The {@code RateLimit-*} headers of a bucket, and {@code Retry-After} once it is exceeded. */
    static void headers(HttpServletResponse response, Bucket bucket) {
        response.setHeader("RateLimit-Limit", Integer.toString(bucket.limit()));
        response.setHeader("RateLimit-Remaining", Long.toString(bucket.remaining()));
        response.setHeader("RateLimit-Reset", Long.toString(bucket.resetSeconds()));
        if (bucket.exceeded()) {
            response.setHeader("Retry-After", Long.toString(bucket.resetSeconds()));
        }
    }

    /** The bucket of requests without a valid token from one client address. */
    static String addressKey(RateLimitSettings settings, String address) {
        return "ratelimit:" + settings.anonymousRequests() + "/" + settings.window().toMillis() + ":addr:" + address;
    }

    private @Nullable Bucket take(HttpServletRequest request) {
        String token = bearerToken(request);
        Caller caller = authenticatedCaller();
        String feverKey = feverKey(request);
        String readerAuth = readerAuth(request);
        int limit = caller != null || feverKey != null || readerAuth != null ? settings.requests() : settings.anonymousRequests();
        // The limit and window are in the key: a changed setting starts new buckets instead of
        // judging old counts by it. A browser session counts against its person; a Fever app
        // (which only its controller authenticates) against its api_key, a Google Reader app against its Auth value.
        String key = feverKey == null && readerAuth == null && caller == null ? addressKey(settings, request.getRemoteAddr())
                : "ratelimit:" + limit + "/" + settings.window().toMillis() + ":"
                        + (feverKey != null ? "fever:" + sha256(feverKey)
                                : readerAuth != null ? "greader:" + sha256(readerAuth)
                                : token != null ? "token:" + sha256(token) : "session:" + caller.userId());
        try {
            return buckets.take(key, limit, settings.window());
        } catch (RuntimeException unreachable) {
            long now = System.currentTimeMillis();
            long last = lastWarning.get();
            if (now - last >= LOG_EVERY_MILLIS && lastWarning.compareAndSet(last, now)) {
                log.warn("Rate limits not counted (letting requests through): {}", unreachable.toString());
            }
            return null;
        }
    }

    private static @Nullable Caller authenticatedCaller() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication instanceof CallerAuthentication signedIn && signedIn.isAuthenticated()
                ? signedIn.getPrincipal() : null;
    }

    /** The api_key of a Fever call (a form field), if this is one and it has one. */
    private static @Nullable String feverKey(HttpServletRequest request) {
        if (!request.getRequestURI().startsWith(request.getContextPath() + "/fever")) {
            return null;
        }
        String key = request.getParameter("api_key");
        return key == null || key.isBlank() ? null : key.strip();
    }

    /** The Auth value of a Google Reader call ({@code GoogleLogin auth=…}), which only its interceptor checks. */
    private static @Nullable String readerAuth(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        String scheme = "GoogleLogin auth=";
        if (header == null || !header.regionMatches(true, 0, scheme, 0, scheme.length())) {
            return null;
        }
        String auth = header.substring(scheme.length()).strip();
        return auth.isEmpty() || auth.length() > 200 ? null : auth;
    }

    private static @Nullable String bearerToken(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String token = header.substring(7).strip();
        return token.isEmpty() ? null : token;
    }

    private static String sha256(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
