package dev.tributary.api.web;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
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
 * Error pages in the site's layout for a person's browser, for every error status, where API
 * clients get problem+json. A browser is told apart by asking for {@code text/html} by name on a
 * page navigation (a GET or HEAD, or any method the browser says is one, {@code Sec-Fetch-Mode:
 * navigate}) outside {@code /api/}: accepting any type alone (curl, most HTTP libraries) keeps the
 * problem, and so does a page's own {@code fetch}, which asks for JSON.
 */
@Component
class BrowserErrorPages {

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);

    private final ITemplateEngine templates;

    BrowserErrorPages(ITemplateEngine templates) {
        this.templates = templates;
    }

    boolean wantsPage(WebRequest request) {
        return request instanceof NativeWebRequest nativeRequest
                && nativeRequest.getNativeRequest() instanceof HttpServletRequest http && wantsPage(http);
    }

    boolean wantsPage(HttpServletRequest http) {
        String accept = http.getHeader(HttpHeaders.ACCEPT);
        // On an error dispatch the path is the one that failed, not /error.
        Object failed = http.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String path = failed instanceof String original ? original : http.getRequestURI();
        boolean navigation = HttpMethod.GET.matches(http.getMethod()) || HttpMethod.HEAD.matches(http.getMethod())
                || "navigate".equalsIgnoreCase(http.getHeader("Sec-Fetch-Mode"));
        return navigation && accept != null && accept.toLowerCase(Locale.ROOT).contains(MediaType.TEXT_HTML_VALUE)
                && path != null && !path.startsWith("/api/") && !path.equals("/api");
    }

    /** The page for a path that names nothing. */
    ResponseEntity<Object> notFound() {
        return page(HttpStatus.NOT_FOUND.value(), new HttpHeaders());
    }

    /** The page for {@code status}, keeping the problem's headers (Retry-After, Allow) but its type. */
    ResponseEntity<Object> page(int status, HttpHeaders headers) {
        HttpHeaders kept = new HttpHeaders();
        kept.addAll(headers);
        kept.remove(HttpHeaders.CONTENT_TYPE);
        kept.remove(HttpHeaders.CONTENT_LENGTH);
        return ResponseEntity.status(status).headers(kept).contentType(HTML)
                .body(html(status, kept.getFirst(HttpHeaders.RETRY_AFTER)));
    }

    /** Writes the page for {@code status} to a response a filter answers (its headers so far stay). */
    void write(HttpServletResponse response, int status) throws IOException {
        response.setStatus(status);
        response.setContentType(HTML.toString());
        response.getOutputStream().write(html(status, response.getHeader(HttpHeaders.RETRY_AFTER)).getBytes(StandardCharsets.UTF_8));
    }

    private String html(int status, @Nullable String retryAfter) {
        Wording wording = Wording.of(status, retryAfter);
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("title", wording.title());
        model.put("message", wording.message());
        model.put("status", status);
        model.put("signIn", status == 401 || status == 403);
        return templates.process("site/error", new Context(Locale.ENGLISH, model));
    }

    /** What a person is told, in the site's voice: what happened, then what they can do. */
    record Wording(String title, String message) {

        static Wording of(int status, @Nullable String retryAfter) {
            return switch (status) {
                case 400 -> new Wording("Bad request", "This address could not be read. Check it for typos, or go back and try again.");
                case 401 -> new Wording("Sign in needed", "Sign in to see this page.");
                case 403 -> new Wording("Not allowed", "You may not do this. If you were signed out meanwhile, sign in again.");
                case 404 -> new Wording("Not found", "There is nothing at this address.");
                case 405 -> new Wording("Not allowed here", "This page cannot be used that way. Go back and try again.");
                case 413 -> new Wording("Too large", "What was sent is larger than Tributary accepts.");
                case 414, 431 -> new Wording("Address too long", "This address is longer than Tributary reads. Check it, or start again from the home page.");
                case 429 -> new Wording("Too many requests", "You have made many requests in a short time. "
                        + (retryAfter == null ? "Wait a moment" : "Wait " + seconds(retryAfter)) + " and try again.");
                case 503 -> new Wording("Unavailable", "Tributary is too busy to answer right now. Try again in a few seconds.");
                default -> status >= 500
                        ? new Wording("Something went wrong", "Something went wrong on our side; it has been logged. Try again in a moment.")
                        : new Wording("Request refused", "This request could not be handled. Go back and try again.");
            };
        }

        private static String seconds(String retryAfter) {
            try {
                long seconds = Long.parseLong(retryAfter.trim());
                return seconds == 1 ? "a second" : seconds < 120 ? seconds + " seconds" : (seconds + 59) / 60 + " minutes";
            } catch (NumberFormatException date) {
                return "a moment";
            }
        }
    }
}
