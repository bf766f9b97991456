package dev.tributary.api.ratelimit;

import jakarta.servlet.http.HttpServletRequest;

/**
 * What a request is counted against, by its path: each public path has one budget
 * ({@link RateLimitSettings}), and a few paths none (static files, health probes, error pages).
 * The sign-in and OAuth paths are answered by Spring Security itself, so they are counted
 * before it ({@link #beforeSecurity()}); the rest after it, once the caller is known.
 */
enum Budget {
    /** The REST API, Fever and Google Reader: per valid credential, else per address against the anonymous limit. */
    API,
    PAGES,
    FEEDS,
    SIGN_IN,
    OAUTH,
    WEBSUB,
    /** Never counted: static files (a page loads several), health probes for load balancers, error dispatches. */
    NONE;

    static Budget of(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (under(path, "/api") || under(path, "/fever") || under(path, "/reader")) {
            return API;
        }
        if (under(path, "/feeds")) {
            return FEEDS;
        }
        if (under(path, "/websub")) {
            return WEBSUB;
        }
        if (under(path, "/login") || under(path, "/logout") || under(path, "/accounts/ClientLogin")
                || under(path, "/oauth2/authorize") || under(path, "/oauth2/consent")) {
            return SIGN_IN;
        }
        if (under(path, "/oauth2") || under(path, "/.well-known")) {
            return OAUTH;
        }
        if (under(path, "/css") || under(path, "/js") || under(path, "/favicon.ico") || under(path, "/swagger-ui")
                || under(path, "/webjars") || under(path, "/livez") || under(path, "/readyz") || under(path, "/error")
                || under(path, "/actuator")) {
            return NONE;
        }
        return PAGES;
    }

    /** Whether Spring Security answers some of this budget's requests itself, so they must be counted before it. */
    boolean beforeSecurity() {
        return this == SIGN_IN || this == OAUTH;
    }

    /** The limit per window. */
    int limit(RateLimitSettings settings) {
        return switch (this) {
            case API -> settings.requests();
            case PAGES -> settings.pageRequests();
            case FEEDS -> settings.feedRequests();
            case SIGN_IN -> settings.signInRequests();
            case OAUTH -> settings.oauthRequests();
            case WEBSUB -> settings.websubRequests();
            case NONE -> Integer.MAX_VALUE;
        };
    }

    /** What the 429 says is over its limit. */
    String noun() {
        return switch (this) {
            case API -> "API requests";
            case PAGES -> "page requests";
            case FEEDS -> "feed requests";
            case SIGN_IN -> "sign-in requests";
            case OAUTH -> "OAuth requests";
            case WEBSUB -> "WebSub callbacks";
            case NONE -> "requests";
        };
    }

    private static boolean under(String path, String prefix) {
        return path.startsWith(prefix) && (path.length() == prefix.length() || path.charAt(prefix.length()) == '/'
                || path.charAt(prefix.length()) == '?');
    }
}
