package dev.tributary.api.security;

import dev.tributary.api.web.ProblemWriter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenError;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.stereotype.Component;

/**
 * 401 and 403 of the API as problem details, with the RFC 6750 {@code WWW-Authenticate} header
 * (naming {@code invalid_token} or {@code insufficient_scope}) that OAuth clients act on. A 401
 * counts against its address's rate limit and carries its headers ({@link UnauthenticatedLimit}); over
 * that limit a request without a token gets 429, but one whose token is unknown, expired or revoked
 * still gets its 401 {@code invalid_token}, so the app signs in again rather than backing off.
 */
@Component
class SecurityProblems implements AuthenticationEntryPoint, AccessDeniedHandler {

    private final ProblemWriter problems;
    private final UnauthenticatedLimit limit;
    private final UnsupportedMethods methods;

    SecurityProblems(ProblemWriter problems, UnauthenticatedLimit limit, UnsupportedMethods methods) {
        this.problems = problems;
        this.limit = limit;
        this.methods = methods;
    }

    /** Writes the 405 (with {@code Allow}) due for a method the path does not take; false if it takes it. */
    boolean methodNotAllowed(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<String> allowed = methods.allowed(request);
        allowed.ifPresent(taken -> methodNotAllowed(request, response, taken));
        return allowed.isPresent();
    }

    private void methodNotAllowed(HttpServletRequest request, HttpServletResponse response, String allowed) {
        response.setHeader("Allow", allowed);
        try {
            problems.write(request, response, HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed",
                    "Method '" + request.getMethod() + "' is not supported here; this path takes " + allowed + ".");
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        // Unknown, expired, revoked, or not even a token's form (Spring's "malformed" bearer error).
        boolean deadToken = failure instanceof InvalidBearerTokenException
                || failure instanceof OAuth2AuthenticationException oauth && oauth.getError() instanceof BearerTokenError;
        Optional<String> allowed = methods.allowed(request);
        // A dead token's 401 and a 405 are not a wait-and-retry: they get the RateLimit-* headers but no Retry-After.
        boolean overLimit = limit.overLimit(request, deadToken || allowed.isPresent() ? new HttpServletResponseWrapper(response) {
            @Override
            public void setHeader(String name, String value) {
                if (!"Retry-After".equalsIgnoreCase(name)) {
                    super.setHeader(name, value);
                }
            }
        } : response);
        if (allowed.isPresent()) {
            methodNotAllowed(request, response, allowed.get());
            return;
        }
        // A token that died is answered as such even over the address's limit: a 429 would make the
        // app back off and retry the dead token instead of signing in again. It still counts.
        if (deadToken) {
            response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\""
                    + failure.getMessage() + "\"");
            problems.write(request, response, HttpStatus.UNAUTHORIZED, "invalid-token", failure.getMessage());
            return;
        }
        if (overLimit) {
            problems.write(request, response, HttpStatus.TOO_MANY_REQUESTS, "too-many-requests",
                    "Too many requests without a valid token from this address; try again after Retry-After seconds.");
            return;
        }
        response.setHeader("WWW-Authenticate", "Bearer");
        problems.write(request, response, HttpStatus.UNAUTHORIZED, "unauthorized",
                "This endpoint needs an access token: Authorization: Bearer <token>.");
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied)
            throws IOException {
        if (methodNotAllowed(request, response)) {
            return;
        }
        if (denied instanceof CsrfException) {
            problems.write(request, response, HttpStatus.FORBIDDEN, "csrf",
                    "This request acts through a signed-in browser session, so it must carry the session's CSRF token "
                            + "in the X-CSRF-TOKEN header (or use Authorization: Bearer instead).");
            return;
        }
        String scope = AccountEndpoints.MATCHER.matches(request) ? "account"
                : "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod()) ? "read" : "write";
        response.setHeader("WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"" + scope + "\"");
        problems.write(request, response, HttpStatus.FORBIDDEN, "insufficient-scope", scope.equals("account")
                ? "Managing the account needs the 'account' scope: the person's own browser session or a personal token "
                        + "made with it. No app is granted it."
                : "This token lacks the '" + scope + "' scope this request needs.");
    }
}
