package dev.tributary.api.security;

import java.util.List;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * The endpoints that manage the account rather than use it: the person's personal tokens, the
 * apps they authorised, their private feed url's secret and their password. They need the
 * {@code account} scope, which only the person holds (their browser session, or a personal token
 * made with it): an app acting for them, even with {@code write}, could otherwise revoke their
 * other credentials, withdraw other apps or rotate them out of their own feed url. Creating a
 * token ({@code POST /api/v1/tokens}) takes the password itself and is matched before these.
 * The linked XMPP address is one too: an app could otherwise link an address of its own, prove
 * it, and keep receiving the person's home timeline after they withdrew it.
 */
public final class AccountEndpoints {

    /** Path patterns, for the documents that list them (OpenAPI) as well as the matcher. */
    public static final List<String> PATTERNS = List.of("/api/v1/tokens", "/api/v1/tokens/**", "/api/v1/authorizations",
            "/api/v1/authorizations/**", "/api/v1/me/feed_token", "/api/v1/me/password",
            "/api/v1/me/sessions/revoke", "/api/v1/me/xmpp", "/api/v1/me/xmpp/**");

    /** Any method on any of {@link #PATTERNS}. */
    static final RequestMatcher MATCHER = new OrRequestMatcher(PATTERNS.stream()
            .map(pattern -> (RequestMatcher) PathPatternRequestMatcher.withDefaults().matcher(pattern)).toList());

    private AccountEndpoints() {
    }
}
