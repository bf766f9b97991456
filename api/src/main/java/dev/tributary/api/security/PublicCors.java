package dev.tributary.api.security;

import java.util.List;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;

/**
 * The cross-origin policy of everything a third-party web app calls from its own origin: the API,
 * the OAuth endpoints a public client uses without a back end (discovery, keys, token exchange and
 * refresh, revocation), the contract document and the public feeds. Any origin, and never
 * credentials: another origin can never ride on a Tributary browser session, so bearer tokens (and
 * the feed token in a feed's URL) are the only way in. Pages (the login and consent forms, the
 * authorization endpoint a browser navigates to) get no CORS at all.
 */
public final class PublicCors {

    /** The response headers a script may read besides the CORS-safelisted ones. */
    static final List<String> EXPOSED = List.of("Link", "ETag", "Retry-After", "RateLimit-Limit", "RateLimit-Remaining",
            "RateLimit-Reset", "Location", "WWW-Authenticate");

    private PublicCors() {
    }

    /** The one policy, registered for every path it applies to; other paths get none. */
    public static UrlBasedCorsConfigurationSource source() {
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        source.registerCorsConfiguration("/api/**", policy(List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"),
                List.of("Authorization", "Content-Type", "If-None-Match", "If-Modified-Since", "Last-Event-ID")));
        CorsConfiguration reads = policy(List.of("GET", "HEAD"), List.of("If-None-Match", "If-Modified-Since"));
        source.registerCorsConfiguration("/.well-known/oauth-authorization-server", reads);
        source.registerCorsConfiguration("/.well-known/oauth-authorization-server/**", reads);
        source.registerCorsConfiguration("/oauth2/jwks", reads);
        source.registerCorsConfiguration("/v3/api-docs", reads);
        source.registerCorsConfiguration("/v3/api-docs/**", reads);
        source.registerCorsConfiguration("/feeds/**", reads);
        // Client authentication of a confidential app may come as HTTP Basic in Authorization.
        CorsConfiguration forms = policy(List.of("POST"), List.of("Authorization", "Content-Type"));
        source.registerCorsConfiguration("/oauth2/token", forms);
        source.registerCorsConfiguration("/oauth2/revoke", forms);
        source.registerCorsConfiguration("/oauth2/register", policy(List.of("POST"), List.of("Content-Type")));
        return source;
    }

    private static CorsConfiguration policy(List<String> methods, List<String> requestHeaders) {
        CorsConfiguration cors = new CorsConfiguration();
        cors.addAllowedOriginPattern("*");
        cors.setAllowedMethods(methods);
        cors.setAllowedHeaders(requestHeaders);
        cors.setExposedHeaders(EXPOSED);
        cors.setAllowCredentials(false);
        cors.setMaxAge(3600L);
        return cors;
    }
}
