package dev.tributary.api.security;

import dev.tributary.api.web.Scope;
import dev.tributary.api.web.Caller;
import dev.tributary.api.web.Credential;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.DeferredSecurityContext;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.web.context.HttpRequestResponseHolder;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Lets the web front end call {@code /api/**} with the browser's signed-in session instead of a
 * bearer token: the session's person becomes a {@link Caller} with {@code read}, {@code write} and
 * {@code account} (the person themselves manages their account).
 * A request with an {@code Authorization} header is judged by that header alone, and an unsafe
 * request that relies on the session must carry the session's CSRF token ({@link #needsCsrfToken}).
 * It never writes the session: signing in and out happen on the site's own pages.
 */
final class SessionCallers implements SecurityContextRepository {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    @Override
    @SuppressWarnings("deprecation") // still abstract in the interface; the filters call loadDeferredContext
    public SecurityContext loadContext(HttpRequestResponseHolder holder) {
        return load(holder.getRequest());
    }

    @Override
    public DeferredSecurityContext loadDeferredContext(HttpServletRequest request) {
        return new DeferredSecurityContext() {
            private @Nullable SecurityContext loaded;

            @Override
            public SecurityContext get() {
                if (loaded == null) {
                    loaded = load(request);
                }
                return loaded;
            }

            @Override
            public boolean isGenerated() {
                return get().getAuthentication() == null;
            }
        };
    }

    @Override
    public void saveContext(SecurityContext context, HttpServletRequest request, HttpServletResponse response) {
        // Bearer requests are stateless and the session is the site's to change.
    }

    @Override
    public boolean containsContext(HttpServletRequest request) {
        return signedIn(request) != null;
    }

    /** Unsafe requests that act through the session, where a forged cross-site request would. */
    static final RequestMatcher needsCsrfToken = request -> !SAFE_METHODS.contains(request.getMethod())
            && request.getHeader(HttpHeaders.AUTHORIZATION) == null
            && request.getSession(false) != null;

    private static SecurityContext load(HttpServletRequest request) {
        Caller caller = signedIn(request);
        SecurityContext context = SecurityContextHolder.createEmptyContext();
        if (caller != null) {
            context.setAuthentication(new CallerAuthentication(caller));
        }
        return context;
    }

    private static @Nullable Caller signedIn(HttpServletRequest request) {
        if (request.getHeader(HttpHeaders.AUTHORIZATION) != null) {
            return null;
        }
        HttpSession session = request.getSession(false);
        if (session == null) {
            return null;
        }
        Object stored = session.getAttribute(HttpSessionSecurityContextRepository.SPRING_SECURITY_CONTEXT_KEY);
        if (!(stored instanceof SecurityContextImpl context)) {
            return null;
        }
        Authentication signedIn = context.getAuthentication();
        // The site's password login names the person by id (PasswordLoginAuthenticationProvider).
        if (!(signedIn instanceof UsernamePasswordAuthenticationToken) || !signedIn.isAuthenticated()) {
            return null;
        }
        try {
            return new Caller(Long.parseLong(signedIn.getName()), Set.of(Scope.READ, Scope.WRITE, Scope.ACCOUNT),
                    new Credential(Credential.Kind.SESSION, Set.of(Revocations.sessionKey(session.getId()))));
        } catch (NumberFormatException notOurs) {
            return null;
        }
    }
}
