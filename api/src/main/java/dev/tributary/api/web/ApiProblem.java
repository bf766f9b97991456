package dev.tributary.api.web;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * An error the API answers on purpose, rendered as RFC 9457 problem details. Controllers and
 * services throw these; {@link ApiExceptionHandler} renders them like every other error.
 */
public class ApiProblem extends ErrorResponseException {

    private static final String TYPE_PREFIX = "urn:tributary:problem:";

    private ApiProblem(HttpStatusCode status, String key, String detail) {
        super(status, problem(status, key, detail), null);
    }

    private static ProblemDetail problem(HttpStatusCode status, String key, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(TYPE_PREFIX + key));
        return problem;
    }

    /** The problem type of a key: {@code urn:tributary:problem:<key>}. */
    public static URI type(String key) {
        return URI.create(TYPE_PREFIX + key);
    }

    /** The type of a problem only its status names (Spring's, Tomcat's): {@code urn:tributary:problem:not-found}… */
    public static URI typeOf(int status) {
        HttpStatus known = HttpStatus.resolve(status);
        return type(known == null ? "error" : known.getReasonPhrase().toLowerCase(Locale.ROOT).replace(' ', '-'));
    }

    /** 404: what is named does not exist, or is not the caller's to see (never say which). */
    public static ApiProblem notFound(String what) {
        return new ApiProblem(HttpStatus.NOT_FOUND, "not-found", "No such " + what + ".");
    }

    /** 400 for one bad field, listed in {@code errors} as validation failures are. */
    public static ApiProblem invalid(String field, String message) {
        ApiProblem problem = new ApiProblem(HttpStatus.BAD_REQUEST, "invalid", "Invalid request: " + field + " " + message + ".");
        problem.getBody().setProperty("errors", List.of(Map.of("field", field, "message", message)));
        return problem;
    }

    /** 400 for a request that is wrong as a whole (no single field to blame). */
    public static ApiProblem badRequest(String detail) {
        return new ApiProblem(HttpStatus.BAD_REQUEST, "bad-request", detail);
    }

    public static ApiProblem conflict(String detail) {
        return new ApiProblem(HttpStatus.CONFLICT, "conflict", detail);
    }

    public static ApiProblem forbidden(String detail) {
        return new ApiProblem(HttpStatus.FORBIDDEN, "forbidden", detail);
    }

    public static ApiProblem unauthorized(String detail) {
        return new ApiProblem(HttpStatus.UNAUTHORIZED, "unauthorized", detail);
    }

    /** 401 for HTTP Basic credentials that are missing or wrong, with the {@code WWW-Authenticate: Basic} challenge RFC 9110 requires. */
    public static ApiProblem unauthorizedBasic(String detail) {
        ApiProblem problem = new ApiProblem(HttpStatus.UNAUTHORIZED, "unauthorized", detail);
        problem.getHeaders().set("WWW-Authenticate", "Basic realm=\"tributary\", charset=\"UTF-8\"");
        return problem;
    }

    /** 422 with a stable {@code reason} key beside the sentence (e.g. why a feed was refused). */
    public static ApiProblem unprocessable(String key, String reason, String detail) {
        ApiProblem problem = new ApiProblem(HttpStatus.UNPROCESSABLE_CONTENT, key, detail);
        problem.getBody().setProperty("reason", reason);
        return problem;
    }

    /** 429 with the seconds to wait, sent as {@code Retry-After} too. */
    public static ApiProblem tooManyRequests(String detail, long retryAfterSeconds) {
        return new ApiProblem(HttpStatus.TOO_MANY_REQUESTS, "too-many-requests", detail).retryAfter(retryAfterSeconds);
    }

    /** 503: the node cannot serve this now (a store unreachable, its connections all taken); {@code Retry-After} in seconds. */
    public static ApiProblem unavailable(String detail, long retryAfterSeconds) {
        return new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "unavailable", detail).retryAfter(retryAfterSeconds);
    }

    /** 503 for a store that cannot answer now (its connections all taken, unreachable, a command timed out). */
    public static ApiProblem storeBusy() {
        return unavailable("The service is too busy to answer this now; try again in a few seconds.", 5);
    }

    private ApiProblem retryAfter(long seconds) {
        getHeaders().set("Retry-After", Long.toString(Math.max(1, seconds)));
        return this;
    }
}
