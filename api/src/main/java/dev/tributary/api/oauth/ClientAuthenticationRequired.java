package dev.tributary.api.oauth;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;

/**
 * A request to the token, revocation or introspection endpoint that names no client: RFC 6749
 * §5.2's {@code invalid_client} error (401, {@code WWW-Authenticate: Basic}) in the JSON OAuth
 * libraries parse, where Spring Security would answer an empty 401. These endpoints speak
 * OAuth's error format, not the API's problem details.
 */
class ClientAuthenticationRequired implements AuthenticationEntryPoint {

    private static final byte[] BODY = ("{\"error\":\"invalid_client\",\"error_description\":\"Client authentication "
            + "failed: send client_id (and client_secret for a confidential app) with HTTP Basic or in the form body.\"}")
            .getBytes(StandardCharsets.UTF_8);

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        response.setStatus(HttpStatus.UNAUTHORIZED.value());
        response.setHeader("WWW-Authenticate", "Basic realm=\"tributary\"");
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("application/json");
        response.getOutputStream().write(BODY);
    }
}
