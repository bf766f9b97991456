package dev.tributary.api.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a problem document straight to the response, for errors raised in filters (security,
 * rate limits, body limits) before any controller runs; a person's browser navigating to a page
 * gets the error page instead ({@link BrowserErrorPages}).
 */
@Component
public class ProblemWriter {

    private final JsonMapper json;
    private final BrowserErrorPages pages;

    ProblemWriter(JsonMapper json, BrowserErrorPages pages) {
        this.json = json;
        this.pages = pages;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, HttpStatus status, String key, String detail)
            throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(ApiProblem.type(key));
        problem.setInstance(instance(request.getRequestURI()));
        write(request, response, problem);
    }

    /** The problem, or the error page for a browser's page navigation. */
    public void write(HttpServletRequest request, HttpServletResponse response, ProblemDetail problem) throws IOException {
        if (pages.wantsPage(request)) {
            pages.write(response, problem.getStatus());
        } else {
            write(response, problem);
        }
    }

    /** The path the problem is about; none for a path Tomcat or the firewall refused as malformed. */
    static @Nullable URI instance(@Nullable String path) {
        try {
            return path == null ? null : URI.create(path);
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }

    public void write(HttpServletResponse response, ProblemDetail problem) throws IOException {
        response.setStatus(problem.getStatus());
        response.setContentType("application/problem+json");
        response.setCharacterEncoding("UTF-8");
        response.getOutputStream().write(json.writeValueAsBytes(problem));
    }
}
