package dev.tributary.api.oauth;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.authentication.AuthenticationConverter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Lets public apps (no secret) revoke their tokens by naming their {@code client_id}, as RFC 7009
 * and OAuth 2.1 allow; Spring's server authenticates public clients only for the code exchange
 * (by the PKCE verifier). The server still checks the token was issued to that client.
 */
final class PublicClientRevocation {

    private static final String MARKER = PublicClientRevocation.class.getName();

    private PublicClientRevocation() {
    }

    /** Reads a public client's revocation request: a lone client_id, no secret or assertion. */
    static final class Converter implements AuthenticationConverter {

        private final RequestMatcher revocation;

        Converter(String revocationEndpoint) {
            this.revocation = PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.POST, revocationEndpoint);
        }

        @Override
        public @Nullable Authentication convert(HttpServletRequest request) {
            if (!revocation.matches(request) || request.getHeader("Authorization") != null
                    || request.getParameter("client_secret") != null || request.getParameter("client_assertion") != null) {
                return null;
            }
            String[] clientIds = request.getParameterValues("client_id");
            if (clientIds == null || clientIds.length != 1 || clientIds[0].isEmpty()) {
                return null;
            }
            return new OAuth2ClientAuthenticationToken(clientIds[0], ClientAuthenticationMethod.NONE, null,
                    Map.of(MARKER, true));
        }
    }

    /** Authenticates what {@link Converter} read, for apps registered as public only. */
    static final class Provider implements AuthenticationProvider {

        private final RegisteredClientRepository clients;

        Provider(RegisteredClientRepository clients) {
            this.clients = clients;
        }

        @Override
        public @Nullable Authentication authenticate(Authentication authentication) {
            OAuth2ClientAuthenticationToken request = (OAuth2ClientAuthenticationToken) authentication;
            if (!Boolean.TRUE.equals(request.getAdditionalParameters().get(MARKER))) {
                return null;
            }
            String clientId = String.valueOf(request.getPrincipal());
            RegisteredClient client = clientId.length() > 100 ? null : clients.findByClientId(clientId);
            if (client == null || !client.getClientAuthenticationMethods().contains(ClientAuthenticationMethod.NONE)) {
                throw new OAuth2AuthenticationException(OAuth2ErrorCodes.INVALID_CLIENT);
            }
            return new OAuth2ClientAuthenticationToken(client, ClientAuthenticationMethod.NONE, null);
        }

        @Override
        public boolean supports(Class<?> authentication) {
            return OAuth2ClientAuthenticationToken.class.isAssignableFrom(authentication);
        }
    }
}
