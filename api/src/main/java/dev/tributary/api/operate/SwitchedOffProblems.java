package dev.tributary.api.operate;

import dev.tributary.api.web.ApiProblem;
import dev.tributary.pubsub.FeatureSwitchedOffException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * A switched-off feature answers 503 problem+json with {@code Retry-After}: clients back off and
 * retry as they do for any overload. Ordered first, since the API's catch-all handler would
 * otherwise take the exception as an unexpected error.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class SwitchedOffProblems {

    /** Seconds a client is told to wait: switches are flipped for minutes, so a short wait costs little. */
    static final int RETRY_AFTER_SECONDS = 60;

    @ExceptionHandler(FeatureSwitchedOffException.class)
    ResponseEntity<ProblemDetail> switchedOff(FeatureSwitchedOffException e) {
        ApiProblem problem = ApiProblem.unavailable("This feature (" + e.feature().wireName()
                + ") is switched off while the service is under heavy load; try again later.", RETRY_AFTER_SECONDS);
        problem.getBody().setProperty("feature", e.feature().wireName());
        return ResponseEntity.status(problem.getStatusCode()).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .headers(problem.getHeaders()).body(problem.getBody());
    }
}
