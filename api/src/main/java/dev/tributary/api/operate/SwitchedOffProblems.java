package dev.tributary.api.operate;

import dev.tributary.pubsub.FeatureSwitchedOffException;
import java.net.URI;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
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
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "This feature (" + e.feature().wireName() + ") is switched off while the service is under heavy load; try again later.");
        problem.setType(URI.create("urn:tributary:problem:unavailable"));
        problem.setProperty("feature", e.feature().wireName());
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS)).body(problem);
    }
}
