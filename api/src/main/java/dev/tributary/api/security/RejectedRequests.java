package dev.tributary.api.security;

import dev.tributary.api.web.ProblemWriter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;

/**
 * What Spring Security's firewall refuses (a {@code ;} or {@code ..} in the path, encoded slashes,
 * non-ASCII header values, a method outside the standard ones) as a problem: 405 with
 * {@code Allow} for the method (such as {@code QUERY} or {@code TRACE}), 401 for an
 * {@code Authorization} header with bytes no credential holds, 400 for the rest.
 * Spring Security picks up the one bean of this type for every filter chain.
 */
@Component
class RejectedRequests implements RequestRejectedHandler {

    /** The methods the firewall lets through (StrictHttpFirewall's defaults). */
    private static final List<String> ALLOWED_METHODS = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final ProblemWriter problems;

    RejectedRequests(ProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException rejected)
            throws IOException {
        if (!ALLOWED_METHODS.contains(request.getMethod())) {
            response.setHeader("Allow", String.join(", ", ALLOWED_METHODS));
            problems.write(request, response, HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed",
                    "The API answers " + String.join(", ", ALLOWED_METHODS) + " only.");
            return;
        }
        String authorization = request.getHeader("Authorization");
        if (authorization != null && authorization.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
            // Bytes no token or password encoding ever holds: the credential is not valid, which is a
            // 401 a client acts on (sign in again), not a 400 that blames the request's form.
            boolean basic = authorization.regionMatches(true, 0, "Basic ", 0, 6);
            response.setHeader("WWW-Authenticate", basic ? "Basic realm=\"tributary\", charset=\"UTF-8\""
                    : "Bearer error=\"invalid_token\", error_description=\"The access token is not valid.\"");
            problems.write(request, response, HttpStatus.UNAUTHORIZED, basic ? "unauthorized" : "invalid-token",
                    "The Authorization header holds bytes outside printable ASCII, which no valid credential has.");
            return;
        }
        problems.write(request, response, HttpStatus.BAD_REQUEST, "rejected-request",
                "The request was refused before reaching the API: its path or headers hold something not allowed "
                        + "(such as ';', '..', an encoded slash or a non-ASCII header value).");
    }
}
