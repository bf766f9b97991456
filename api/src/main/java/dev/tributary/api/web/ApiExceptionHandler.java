package dev.tributary.api.web;

import dev.tributary.crawler.ArticleUnavailableException;
import dev.tributary.crawler.FeedRejectedException;
import dev.tributary.pubsub.FolderLimitException;
import dev.tributary.pubsub.FolderNameTakenException;
import dev.tributary.pubsub.FolderNotFoundException;
import dev.tributary.pubsub.Folders;
import dev.tributary.pubsub.GroupNotFoundException;
import dev.tributary.pubsub.InvalidNameException;
import dev.tributary.pubsub.InvalidRuleException;
import dev.tributary.pubsub.InvitationRefusedException;
import dev.tributary.pubsub.ItemNotFoundException;
import dev.tributary.pubsub.MySqlFailures;
import dev.tributary.pubsub.NotAMemberException;
import dev.tributary.pubsub.QuotaExceededException;
import dev.tributary.pubsub.RedisFailures;
import dev.tributary.pubsub.SourceNotFoundException;
import dev.tributary.pubsub.TooManyStarsException;
import jakarta.validation.ConstraintViolationException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Every error as RFC 9457 problem details: Spring's own (405, 406, 415, 404 for unknown paths…),
 * validation failures with an {@code errors} array of {@code {field, message}}, unreadable
 * bodies, and the domain's exceptions. Nothing the client sends should end as a 500.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiExceptionHandler.class);

    /** What a malformed query parameter is called wherever the stack refuses one. */
    static final String MALFORMED_PARAMETER = "has a parameter without a name or with a malformed %-escape, "
            + "or more parameters than the server reads";

    private final BrowserErrorPages pages;
    private final ProblemWriter problems;

    ApiExceptionHandler(BrowserErrorPages pages, ProblemWriter problems) {
        this.pages = pages;
        this.problems = problems;
    }

    /** An unknown path: a page in the site's layout for a browser, the problem for everyone else. */
    @Override
    protected ResponseEntity<Object> handleNoResourceFoundException(NoResourceFoundException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        return pages.wantsPage(request) ? pages.notFound() : super.handleNoResourceFoundException(ex, headers, status, request);
    }

    /**
     * 406, or an {@code Accept} header that does not parse ({@code ;;;}): written straight as a
     * problem, since Spring would look for a representation the client accepts, find none and
     * send an empty body.
     */
    @Override
    protected @Nullable ResponseEntity<Object> handleHttpMediaTypeNotAcceptable(HttpMediaTypeNotAcceptableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (!(request instanceof ServletWebRequest servlet) || servlet.getResponse() == null
                || servlet.getResponse().isCommitted()) {
            return super.handleHttpMediaTypeNotAcceptable(ex, headers, status, request);
        }
        try {
            problems.write(servlet.getRequest(), servlet.getResponse(), HttpStatus.NOT_ACCEPTABLE, "not-acceptable",
                    "This resource is available as application/json (errors as application/problem+json) only; "
                            + "the Accept header names neither, or does not parse.");
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
        return null;
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        List<Map<String, String>> errors = new ArrayList<>();
        for (FieldError error : ex.getBindingResult().getFieldErrors()) {
            errors.add(fieldError(JsonNames.snakeCase(error.getField()), error.getDefaultMessage()));
        }
        ex.getBindingResult().getGlobalErrors().forEach(e -> errors.add(fieldError(e.getObjectName(), e.getDefaultMessage())));
        return validation(ex, errors, headers, request);
    }

    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<Map<String, String>> errors = new ArrayList<>();
        ex.getParameterValidationResults().forEach(result -> result.getResolvableErrors().forEach(error -> errors.add(
                fieldError(result.getMethodParameter().getParameterName(), error.getDefaultMessage()))));
        return validation(ex, errors, headers, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        RequestTooLargeException tooLarge = cause(ex, RequestTooLargeException.class);
        if (tooLarge != null) {
            return tooLarge(tooLarge, request);
        }
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, unreadable(ex));
        problem.setType(ApiProblem.type("unreadable"));
        MismatchedInputException mismatch = cause(ex, MismatchedInputException.class);
        if (mismatch != null) {
            problem.setType(ApiProblem.type("invalid"));
            problem.setProperty("errors", List.of(fieldError(path(mismatch), mismatchMessage(mismatch))));
        }
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    @ExceptionHandler(RequestTooLargeException.class)
    ResponseEntity<Object> tooLarge(RequestTooLargeException ex, WebRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE, ex.getMessage());
        problem.setType(ApiProblem.type("too-large"));
        return handleExceptionInternal(ex, problem, new HttpHeaders(), HttpStatus.CONTENT_TOO_LARGE, request);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<Object> typeMismatch(MethodArgumentTypeMismatchException ex, WebRequest request) {
        return validation(ex, List.of(fieldError(ex.getName(), "has the wrong type")), new HttpHeaders(), request);
    }

    /**
     * Tomcat refuses a query or form body with a malformed parameter (an empty name, as in
     * {@code ?=}, or a bad %-escape), or with more parameters than it parses
     * ({@code server.tomcat.max-parameter-count}), only when a controller first reads them.
     */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<Object> malformedParameter(InvalidParameterException ex, WebRequest request) {
        return validation(ex, List.of(fieldError("query", MALFORMED_PARAMETER)), new HttpHeaders(), request);
    }

    @ExceptionHandler(ConstraintViolationException.class)
    ResponseEntity<Object> constraintViolation(ConstraintViolationException ex, WebRequest request) {
        List<Map<String, String>> errors = new ArrayList<>();
        ex.getConstraintViolations().forEach(v -> errors.add(fieldError(lastNode(v.getPropertyPath().toString()), v.getMessage())));
        return validation(ex, errors, new HttpHeaders(), request);
    }

    @ExceptionHandler({SourceNotFoundException.class, GroupNotFoundException.class})
    ResponseEntity<Object> notFound(RuntimeException ex, WebRequest request) {
        ApiProblem problem = ApiProblem.notFound(ex instanceof GroupNotFoundException ? "group" : "resource");
        return handleExceptionInternal(problem, problem.getBody(), problem.getHeaders(), problem.getStatusCode(), request);
    }

    @ExceptionHandler(ItemNotFoundException.class)
    ResponseEntity<Object> itemNotFound(ItemNotFoundException ex, WebRequest request) {
        ApiProblem problem = ApiProblem.notFound("item");
        return handleExceptionInternal(problem, problem.getBody(), problem.getHeaders(), problem.getStatusCode(), request);
    }

    @ExceptionHandler(TooManyStarsException.class)
    ResponseEntity<Object> tooManyStars(TooManyStarsException ex, WebRequest request) {
        ApiProblem problem = ApiProblem.unprocessable("too-many-stars", "too-many-stars",
                "A person may star at most " + ex.max() + " items; unstar some first.");
        return handleExceptionInternal(problem, problem.getBody(), problem.getHeaders(), problem.getStatusCode(), request);
    }

    @ExceptionHandler(FolderNotFoundException.class)
    ResponseEntity<Object> folderNotFound(FolderNotFoundException ex, WebRequest request) {
        return render(ApiProblem.notFound("folder"), request);
    }

    @ExceptionHandler(FolderNameTakenException.class)
    ResponseEntity<Object> folderNameTaken(FolderNameTakenException ex, WebRequest request) {
        return render(ApiProblem.conflict("You have a folder of that name already (names are compared without regard to case)."),
                request);
    }

    @ExceptionHandler(FolderLimitException.class)
    ResponseEntity<Object> folderLimit(FolderLimitException ex, WebRequest request) {
        return render(ApiProblem.unprocessable("too-many-folders", "too_many_folders",
                "You have " + Folders.MAX_FOLDERS + " folders, the most a person may have: delete one first."), request);
    }

    /** A folder name or subscription title the domain's rules refuse: 422 naming the field, like a validation failure. */
    @ExceptionHandler(InvalidNameException.class)
    ResponseEntity<Object> invalidName(InvalidNameException ex, WebRequest request) {
        ApiProblem problem = ApiProblem.unprocessable("invalid-name", "invalid_name", "Invalid " + ex.field() + ": it "
                + ex.problem() + ".");
        problem.getBody().setProperty("errors", List.of(fieldError(ex.field(), ex.problem())));
        return render(problem, request);
    }

    /** A rule's pattern or scope refused (a regex with RE2's own message): 400 naming the field, like a validation failure. */
    @ExceptionHandler(InvalidRuleException.class)
    ResponseEntity<Object> invalidRule(InvalidRuleException ex, WebRequest request) {
        return render(ApiProblem.invalid(ex.field(), ex.problem()), request);
    }

    private ResponseEntity<Object> render(ApiProblem problem, WebRequest request) {
        return handleExceptionInternal(problem, problem.getBody(), problem.getHeaders(), problem.getStatusCode(), request);
    }

    /** A count limit of {@code tributary.limits.*}: 422 with the quota's stable reason and the limit. */
    @ExceptionHandler(QuotaExceededException.class)
    ResponseEntity<Object> quotaExceeded(QuotaExceededException ex, WebRequest request) {
        ApiProblem problem = ApiProblem.unprocessable("limit-reached", ex.quota().reason(), ex.advice());
        problem.getBody().setProperty("limit", ex.limit());
        return render(problem, request);
    }

    @ExceptionHandler(InvitationRefusedException.class)
    ResponseEntity<Object> invitationRefused(InvitationRefusedException ex, WebRequest request) {
        return render(ApiProblem.unprocessable("invitation-refused", "invitations_refused",
                "This person does not take invitations from this group."), request);
    }

    @ExceptionHandler(NotAMemberException.class)
    ResponseEntity<Object> notAMember(NotAMemberException ex, WebRequest request) {
        ApiProblem problem = ApiProblem.forbidden("Only members of the group may do this.");
        return handleExceptionInternal(problem, problem.getBody(), problem.getHeaders(), problem.getStatusCode(), request);
    }

    @ExceptionHandler(ArticleUnavailableException.class)
    ResponseEntity<Object> articleUnavailable(ArticleUnavailableException ex, WebRequest request) {
        ApiProblem problem = FeedRejections.articleProblem(ex.reason(), ex.getMessage());
        return handleExceptionInternal(problem, problem.getBody(), problem.getHeaders(), problem.getStatusCode(), request);
    }

    @ExceptionHandler(FeedRejectedException.class)
    ResponseEntity<Object> feedRejected(FeedRejectedException ex, WebRequest request) {
        ApiProblem problem = FeedRejections.problem(ex.reason(), ex.getMessage());
        return handleExceptionInternal(problem, problem.getBody(), problem.getHeaders(), problem.getStatusCode(), request);
    }

    /**
     * A store that cannot answer now is not a bug: MySQL's connections all taken for longer than
     * the pool waits (a thousand requests queued for twenty connections), Redis or MySQL
     * unreachable, a command timed out. 503 with {@code Retry-After}, so clients back off instead
     * of retrying at once; logged without a stack, which says nothing the message does not.
     */
    @ExceptionHandler({DataAccessResourceFailureException.class, TransientDataAccessException.class})
    ResponseEntity<Object> storeUnavailable(DataAccessException ex, WebRequest request) {
        // The most specific message: a Redis refusal is "Error in execution" until its cause says "OOM …".
        log.warn("Store unavailable on {}: {}", request.getDescription(false),
                NestedExceptionUtils.getMostSpecificCause(ex).getMessage());
        return render(ApiProblem.storeBusy(), request);
    }

    /**
     * Any other store error: a refusal that passes with time is the store's 503 like those above
     * (Redis out of memory or read-only after a failover: {@link RedisFailures#isRefusedForNow}; MySQL
     * read-only after a failover, its disk full, a statement over its time limit:
     * {@link MySqlFailures#isRefusedForNow}), which Spring translates to the types of a bug; the
     * rest are bugs.
     */
    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<Object> storeRefused(DataAccessException ex, WebRequest request) {
        return StoreUnavailableFilter.refusedForNow(ex) ? storeUnavailable(ex, request) : unexpected(ex, request);
    }

    /**
     * Anything else is a bug, IllegalArgumentException included: the API validates what clients
     * send before it reaches the domain, whose records refuse bad values only as a last line.
     */
    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception ex, WebRequest request) {
        log.error("Unexpected error on {}", request.getDescription(false), ex);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.INTERNAL_SERVER_ERROR,
                "Something went wrong on our side; it has been logged.");
        return handleExceptionInternal(ex, problem, new HttpHeaders(), HttpStatus.INTERNAL_SERVER_ERROR, request);
    }

    /**
     * Spring's own problems (404 for unknown paths, 405, 415…) leave {@code type} unset, and the
     * API promises one on every problem: name it after the status, as ours are.
     */
    @Override
    protected ResponseEntity<Object> createResponseEntity(@Nullable Object body, HttpHeaders headers, HttpStatusCode status,
            WebRequest request) {
        if (body instanceof ProblemDetail problem && (problem.getType() == null || "about:blank".equals(problem.getType().toString()))) {
            problem.setType(ApiProblem.typeOf(status.value()));
        }
        // A person's browser navigating to a page gets the error page in the site's layout.
        if (pages.wantsPage(request)) {
            return pages.page(status.value(), headers);
        }
        return super.createResponseEntity(body, headers, status, request);
    }

    private ResponseEntity<Object> validation(Exception ex, List<Map<String, String>> errors, HttpHeaders headers,
            WebRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "The request has invalid fields.");
        problem.setType(ApiProblem.type("invalid"));
        problem.setProperty("errors", errors);
        return handleExceptionInternal(ex, problem, headers, HttpStatus.BAD_REQUEST, request);
    }

    private static Map<String, String> fieldError(@Nullable String field, @Nullable String message) {
        return Map.of("field", field == null || field.isEmpty() ? "body" : field, "message", message == null ? "is invalid" : message);
    }

    private static String unreadable(HttpMessageNotReadableException ex) {
        if (cause(ex, UnrecognizedPropertyException.class) != null) {
            return "The body has a field this endpoint does not know.";
        }
        if (cause(ex, JacksonException.class) != null && cause(ex, DatabindException.class) == null) {
            return "The body is not well-formed JSON.";
        }
        return ex.getCause() == null ? "The request body is missing." : "The request body could not be read.";
    }

    private static String mismatchMessage(MismatchedInputException mismatch) {
        if (mismatch instanceof UnrecognizedPropertyException) {
            return "is not a known field";
        }
        if (mismatch instanceof InvalidFormatException invalid && invalid.getTargetType() != null
                && invalid.getTargetType().isEnum()) {
            return "is not one of the accepted values";
        }
        return "has the wrong type";
    }

    private static String path(DatabindException ex) {
        StringBuilder path = new StringBuilder();
        for (var reference : ex.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String lastNode(String propertyPath) {
        int dot = propertyPath.lastIndexOf('.');
        return JsonNames.snakeCase(dot < 0 ? propertyPath : propertyPath.substring(dot + 1));
    }

    private static <T extends Throwable> @Nullable T cause(Throwable ex, Class<T> type) {
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
