package dev.tributary.api.greader;

import dev.tributary.api.web.Caller;
import dev.tributary.api.web.GoogleLogin;
import dev.tributary.api.web.ProblemWriter;
import dev.tributary.api.web.Scope;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Admits a Google Reader API call: a valid Auth value (else 401 with
 * {@code X-Reader-Google-Bad-Token: true}, on which the apps sign in again), the {@code write}
 * scope for a change, and a correct {@code T} token on a POST that sends one. An app that sends
 * none (FluentReader) is admitted too: the Auth header alone cannot be forged cross-site.
 */
@Component
class ReaderRequests implements HandlerInterceptor {

    /** The request attribute that holds the caller once admitted. */
    static final String CALLER = "dev.tributary.api.greader.caller";
    /** The request attribute that holds the Auth value the caller came with. */
    static final String AUTH = "dev.tributary.api.greader.auth";

    private final ReaderAuthentication authentication;
    private final ProblemWriter problems;

    ReaderRequests(ReaderAuthentication authentication, ProblemWriter problems) {
        this.authentication = authentication;
        this.problems = problems;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) throws IOException {
        Optional<String> auth = GoogleLogin.auth(request.getHeader("Authorization"));
        Optional<Caller> caller = auth.flatMap(authentication::caller);
        if (caller.isEmpty()) {
            response.setHeader("X-Reader-Google-Bad-Token", "true");
            problems.write(request, response, HttpStatus.UNAUTHORIZED, "unauthorized", auth.isEmpty()
                    ? "Google Reader calls need 'Authorization: GoogleLogin auth=<Auth>' from /accounts/ClientLogin."
                    : "This Auth value is unknown, or the token or password it came from was revoked or changed; "
                            + "sign in again.");
            return false;
        }
        if ("POST".equals(request.getMethod())) {
            String t = request.getParameter("T");
            if (t != null && !MessageDigest.isEqual(t.strip().getBytes(StandardCharsets.UTF_8),
                    ReaderAuthentication.editToken(auth.get()).getBytes(StandardCharsets.UTF_8))) {
                response.setHeader("X-Reader-Google-Bad-Token", "true");
                problems.write(request, response, HttpStatus.UNAUTHORIZED, "bad-edit-token",
                        "The T token does not belong to this Auth value; fetch a new one from /reader/api/0/token.");
                return false;
            }
            if (changes(request) && !caller.get().scopes().contains(Scope.WRITE)) {
                problems.write(request, response, HttpStatus.FORBIDDEN, "insufficient-scope",
                        "This token lacks the 'write' scope this request needs.");
                return false;
            }
        }
        request.setAttribute(CALLER, caller.get());
        request.setAttribute(AUTH, auth.get());
        return true;
    }

    /** Every POST changes something except fetching items' contents, which apps POST for the long id lists. */
    private static boolean changes(HttpServletRequest request) {
        return !request.getRequestURI().endsWith("/stream/items/contents")
                && !request.getRequestURI().contains("/stream/contents");
    }
}
