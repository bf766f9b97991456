package dev.tributary.api.security;

import dev.tributary.api.web.ProblemWriter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.stereotype.Component;

/**
 * 401 and 403 of the API as problem details, with the RFC 6750 {@code WWW-Authenticate} header
 * (naming {@code invalid_token} or {@code insufficient_scope}) that OAuth clients act on. A 401
 * counts against its address's rate limit and carries its headers ({@link UnauthenticatedLimit}).
 */
@Component
class SecurityProblems implements AuthenticationEntryPoint, AccessDeniedHandler {

    private final ProblemWriter problems;
    private final UnauthenticatedLimit limit;

    SecurityProblems(ProblemWriter problems, UnauthenticatedLimit limit) {
        this.problems = problems;
        this.limit = limit;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        if (limit.overLimit(request, response)) {
            problems.write(request, response, HttpStatus.TOO_MANY_REQUESTS, "too-many-requests",
                    "Too many requests without a valid token from this address; try again after Retry-After seconds.");
            return;
        }
        if (failure instanceof InvalidBearerTokenException) {
            response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\""
                    + failure.getMessage() + "\"");
            problems.write(request, response, HttpStatus.UNAUTHORIZED, "invalid-token", failure.getMessage());
            return;
        }
        response.setHeader("WWW-Authenticate", "Bearer");
        problems.write(request, response, HttpStatus.UNAUTHORIZED, "unauthorized",
                "This endpoint needs an access token: Authorization: Bearer <token>.");
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied)
            throws IOException {
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
