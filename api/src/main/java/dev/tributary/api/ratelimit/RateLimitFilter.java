package dev.tributary.api.ratelimit;

import dev.tributary.api.web.Caller;
import dev.tributary.api.security.CallerAuthentication;
import dev.tributary.api.security.PublicCors;
import dev.tributary.api.web.ClientAddress;
import dev.tributary.api.web.PresentedCredential;
import dev.tributary.api.web.ProblemWriter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.cors.DefaultCorsProcessor;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Counts every public request against its {@link Budget}: per person for every authenticated
 * caller (a signed-in browser, personal tokens, OAuth access tokens, valid Fever keys and Google
 * Reader Auth values all share their person's one bucket, so minting more credentials buys no more
 * requests), and per client address for everything else (the open endpoints, a credential that does not authenticate, feeds, WebSub
 * callbacks, sign-in). Registered twice: before Spring Security for the paths it answers itself
 * (sign-in, OAuth), and after it for the rest, when it knows whether a token was valid. Every
 * answer carries {@code RateLimit-Limit}, {@code RateLimit-Remaining} and {@code RateLimit-Reset},
 * and one over the limit is a 429 problem with {@code Retry-After}. When Redis cannot be reached,
 * requests go through uncounted: an outage of the counter must not become an outage of the API.
 * The count of an authenticated caller's request also reads the keys its handler asks for
 * ({@link ReadAlong}), where the store can, so that read costs no round trip of its own.
 */
class RateLimitFilter extends OncePerRequestFilter {

    private static final Logger log = LoggerFactory.getLogger(RateLimitFilter.class);
    private static final long LOG_EVERY_MILLIS = 60_000;
    private static final UrlBasedCorsConfigurationSource CORS = PublicCors.source();

    private final Buckets buckets;
    private final RateLimitSettings settings;
    private final ProblemWriter problems;
    private final List<PresentedCredential> credentials;
    private final List<ReadAlong> along;
    private final boolean beforeSecurity;
    private final AtomicLong lastWarning = new AtomicLong(Long.MIN_VALUE / 2);

    /**
     * @param credentials the credentials only their own API checks (Fever, Google Reader)
     * @param along what handlers want read in the counting round trip of an authenticated caller's request
     * @param beforeSecurity whether this one runs before Spring Security (and counts only the budgets it answers)
     */
    RateLimitFilter(Buckets buckets, RateLimitSettings settings, ProblemWriter problems, List<PresentedCredential> credentials,
            List<ReadAlong> along, boolean beforeSecurity) {
        this.buckets = buckets;
        this.settings = settings;
        this.problems = problems;
        this.credentials = List.copyOf(credentials);
        this.along = List.copyOf(along);
        this.beforeSecurity = beforeSecurity;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // CORS preflights are the browser's, not the client's requests.
        return !settings.enabled() || "OPTIONS".equals(request.getMethod());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Budget budget = Budget.of(request);
        if (budget == Budget.NONE || budget.beforeSecurity() != beforeSecurity) {
            chain.doFilter(request, response);
            return;
        }
        Bucket bucket = take(request, budget);
        if (bucket != null) {
            headers(response, bucket);
            if (bucket.exceeded()) {
                if (beforeSecurity) {
                    // Spring Security's CORS filter is not reached: a browser app must still be able to read the 429.
                    CorsConfiguration cors = CORS.getCorsConfiguration(request);
                    if (cors != null && CorsUtils.isCorsRequest(request)) {
                        new DefaultCorsProcessor().processRequest(cors, request, response);
                    }
                }
                problems.write(request, response, HttpStatus.TOO_MANY_REQUESTS, "too-many-requests",
                        "Over the limit of " + bucket.limit() + " " + budget.noun() + " per " + settings.window().toSeconds()
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

    /** The bucket of API requests without a valid credential from one client address. */
    static String addressKey(RateLimitSettings settings, String address) {
        return "ratelimit:" + settings.anonymousRequests() + "/" + settings.window().toMillis() + ":addr:"
                + ClientAddress.of(address);
    }

    private @Nullable Bucket take(HttpServletRequest request, Budget budget) {
        // The limit and window are in the key: a changed setting starts new buckets instead of
        // judging old counts by it.
        Count count = budget == Budget.API ? apiCount(request) : budgetCount(request, budget);
        try {
            List<String> readKeys = count.caller() != null ? readKeys(request, count.caller()) : List.of();
            Buckets.Taken taken = buckets.take(count.key(), count.limit(), settings.window(), readKeys);
            if (!readKeys.isEmpty() && taken.values() != null) {
                request.setAttribute(ReadAlong.Read.ATTRIBUTE, new ReadAlong.Read(readKeys, taken.values()));
            }
            return taken.bucket();
        } catch (RuntimeException unreachable) {
            long now = System.currentTimeMillis();
            long last = lastWarning.get();
            if (now - last >= LOG_EVERY_MILLIS && lastWarning.compareAndSet(last, now)) {
                log.warn("Rate limits not counted (letting requests through): {}", unreachable.toString());
            }
            return null;
        }
    }

    /**
     * The first non-empty list of keys a handler wants read along for this request; none past
     * {@link ReadAlong#MAX_KEYS}, which the handler reads itself.
     */
    private List<String> readKeys(HttpServletRequest request, Caller caller) {
        for (ReadAlong reader : along) {
            List<String> keys = reader.keys(request, caller);
            if (!keys.isEmpty()) {
                return keys.size() <= ReadAlong.MAX_KEYS ? keys : List.of();
            }
        }
        return List.of();
    }

    /**
     * An API request's bucket: its person's, once Spring Security accepted its token or session, or
     * a Fever key or Google Reader Auth value (which only their own code checks) proved valid; else
     * its address's, against the anonymous limit, so a stream of made-up credentials is counted as
     * one client.
     */
    private Count apiCount(HttpServletRequest request) {
        Count byAddress = new Count(addressKey(settings, request.getRemoteAddr()), settings.anonymousRequests(), null);
        Caller caller = authenticatedCaller();
        if (caller != null) {
            return new Count(personKey(settings, caller.userId()), settings.requests(), caller);
        }
        for (PresentedCredential credential : credentials) {
            Optional<PresentedCredential.Presented> presented = credential.check(request);
            if (presented.isPresent()) {
                Long person = presented.get().person();
                return person != null ? new Count(personKey(settings, person), settings.requests(), null) : byAddress;
            }
        }
        return byAddress;
    }

    /** The bucket of every authenticated API request of one person, whatever credential it carries. */
    static String personKey(RateLimitSettings settings, long person) {
        return "ratelimit:" + settings.requests() + "/" + settings.window().toMillis() + ":person:" + person;
    }

    /** Pages count per signed-in person, else per address; the other budgets always per address. */
    private Count budgetCount(HttpServletRequest request, Budget budget) {
        int limit = budget.limit(settings);
        String prefix = "ratelimit:" + budget.name().toLowerCase(Locale.ROOT) + ":" + limit + "/" + settings.window().toMillis() + ":";
        String person = budget == Budget.PAGES ? signedInPerson() : null;
        return new Count(prefix + (person != null ? "person:" + person : "addr:" + ClientAddress.of(request.getRemoteAddr())), limit,
                null);
    }

    /** A bucket's key, the limit it is held to, and the authenticated caller it counts (if any). */
    private record Count(String key, int limit, @Nullable Caller caller) {
    }

    /** The signed-in person of the web front end's session (its name is the person's id), if any. */
    private static @Nullable String signedInPerson() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication != null && authentication.isAuthenticated()
                && !(authentication instanceof AnonymousAuthenticationToken) ? authentication.getName() : null;
    }

    private static @Nullable Caller authenticatedCaller() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication instanceof CallerAuthentication signedIn && signedIn.isAuthenticated()
                ? signedIn.getPrincipal() : null;
    }
}
