package dev.tributary.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.thymeleaf.ITemplateEngine;
import org.thymeleaf.context.Context;

/**
 * An error page in the site's layout for a person's browser (a page address it cannot find),
 * where API clients get problem+json. A browser is told apart by asking for {@code text/html} by
 * name on a GET outside {@code /api/}: accepting any type alone (curl, most HTTP libraries) keeps the problem.
 */
@Component
class BrowserErrorPages {

    private final ITemplateEngine templates;

    BrowserErrorPages(ITemplateEngine templates) {
        this.templates = templates;
    }

    boolean wantsPage(WebRequest request) {
        if (!(request instanceof NativeWebRequest nativeRequest)
                || !(nativeRequest.getNativeRequest() instanceof HttpServletRequest http)) {
            return false;
        }
        String accept = http.getHeader(HttpHeaders.ACCEPT);
        String path = http.getRequestURI();
        return (HttpMethod.GET.matches(http.getMethod()) || HttpMethod.HEAD.matches(http.getMethod()))
                && accept != null && accept.toLowerCase(Locale.ROOT).contains(MediaType.TEXT_HTML_VALUE)
                && path != null && !path.startsWith("/api/") && !path.equals("/api");
    }

    /** The page for a path that names nothing. */
    ResponseEntity<Object> notFound() {
        String html = templates.process("site/error", new Context(Locale.ENGLISH, Map.of(
                "title", "Not found",
                "message", "There is nothing at this address.")));
        return ResponseEntity.status(HttpStatus.NOT_FOUND).contentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8))
                .body(html);
    }
}
