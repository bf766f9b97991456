package dev.tributary.api.web;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RequestMapping;

/**
 * Replaces Spring Boot's {@code /error}: what reaches it was refused below the controllers (the
 * security firewall, a filter's {@code sendError}, an exception a filter threw), and it answers
 * a problem like every other error instead of Boot's own JSON. Written straight to the response,
 * whatever the request's {@code Accept}, since a client that sent a broken request still parses
 * the contract's error format; only a person's browser navigating to a page gets the error page.
 */
@Controller
class StackErrorController implements ErrorController {

    private final ProblemWriter problems;

    StackErrorController(ProblemWriter problems) {
        this.problems = problems;
    }

    @RequestMapping("${server.error.path:/error}")
    void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
        // Asked for by name (GET /error), not forwarded to: there is no error to report, and no such resource.
        int status = request.getDispatcherType() != DispatcherType.ERROR ? 404
                : exception instanceof InvalidParameterException ? 400 : status(request);
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(status), detail(status));
        problem.setType(ApiProblem.typeOf(status));
        if (exception instanceof InvalidParameterException) {
            problem.setType(ApiProblem.type("invalid"));
            problem.setProperty("errors", List.of(Map.of("field", "query", "message", ApiExceptionHandler.MALFORMED_PARAMETER)));
        }
        problem.setInstance(ProblemWriter.instance((String) request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI)));
        problems.write(request, response, problem);
    }

    private static int status(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        return code instanceof Integer status && HttpStatus.resolve(status) != null && status >= 400 ? status : 500;
    }

    private static String detail(int status) {
        return switch (status) {
            case 400 -> "The request is malformed: its URL, headers or parameters were refused before reaching the API.";
            case 401 -> "This endpoint needs credentials.";
            case 403 -> "This request is not allowed.";
            case 404 -> "No such resource.";
            default -> status >= 500 ? "Something went wrong on our side; it has been logged."
                    : HttpStatus.valueOf(status).getReasonPhrase() + ".";
        };
    }
}
