package dev.tributary.api.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.server.RequestPath;
import org.springframework.stereotype.Component;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * Whether a request's path exists with other methods only, asked of Spring MVC's own mappings
 * before Spring Security refuses the request: an unsupported method is a {@code 405} with
 * {@code Allow} whoever asks, not a {@code 401} or {@code 403} that sends a client to look for a
 * credential that would change nothing.
 */
@Component
class UnsupportedMethods {

    private final ObjectProvider<RequestMappingHandlerMapping> mappings;

    // Looked up when first needed: the MVC mappings are built after the security filter chains.
    UnsupportedMethods(@Qualifier("requestMappingHandlerMapping") ObjectProvider<RequestMappingHandlerMapping> mappings) {
        this.mappings = mappings;
    }

    /** The methods the path takes, when it exists but not with the request's method; else empty. */
    Optional<String> allowed(HttpServletRequest request) {
        RequestMappingHandlerMapping mapping = mappings.getIfAvailable();
        if (mapping == null) {
            return Optional.empty();
        }
        RequestPath previous = ServletRequestPathUtils.hasParsedRequestPath(request)
                ? ServletRequestPathUtils.getParsedRequestPath(request) : null;
        ServletRequestPathUtils.parseAndCache(request);
        try {
            mapping.getHandler(request);
            return Optional.empty();
        } catch (HttpRequestMethodNotSupportedException unsupported) {
            Set<String> methods = new TreeSet<>();
            if (unsupported.getSupportedHttpMethods() != null) {
                unsupported.getSupportedHttpMethods().forEach(method -> methods.add(method.name()));
            }
            return methods.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", methods));
        } catch (Exception other) {
            // Anything else (an unacceptable media type…) is for the handler to say once the caller is let in.
            return Optional.empty();
        } finally {
            if (previous != null) {
                ServletRequestPathUtils.setParsedRequestPath(previous, request);
            } else {
                ServletRequestPathUtils.clearParsedRequestPath(request);
            }
        }
    }
}
