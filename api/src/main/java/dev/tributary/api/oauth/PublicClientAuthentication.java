package dev.tributary.api.oauth;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2ErrorCodes;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClient;
import org.springframework.security.oauth2.server.authorization.client.RegisteredClientRepository;
import org.springframework.security.web.authentication.AuthenticationConverter;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Lets public apps (no secret) revoke their tokens and refresh them by naming their
 * {@code client_id}, as RFC 7009 and OAuth 2.1 allow; Spring's server authenticates public
 * clients only for the code exchange (by the PKCE verifier). The server still checks the token
 * was issued to that client, and {@link RefreshTokenRotation} makes a public refresh token
 * single-use, so a stolen one is found out.
 */
final class PublicClientAuthentication {

    private static final String MARKER = PublicClientAuthentication.class.getName();

    private PublicClientAuthentication() {
    }

    /**
     * Reads a public client's revocation or refresh request: a lone client_id, no secret or
     * assertion. Anything else (a code exchange, a confidential app's credentials) is left to
     * Spring's converters.
     */
    static final class Converter implements AuthenticationConverter {

        private final RequestMatcher revocation;
        private final RequestMatcher token;

        Converter(String revocationEndpoint, String tokenEndpoint) {
            this.revocation = PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.POST, revocationEndpoint);
            this.token = PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.POST, tokenEndpoint);
        }

        @Override
        public @Nullable Authentication convert(HttpServletRequest request) {
            if (!(revocation.matches(request) || token.matches(request) && isRefresh(request))
                    || request.getHeader("Authorization") != null
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

        private static boolean isRefresh(HttpServletRequest request) {
            String[] grantTypes = request.getParameterValues(OAuth2ParameterNames.GRANT_TYPE);
            return grantTypes != null && grantTypes.length == 1
                    && AuthorizationGrantType.REFRESH_TOKEN.getValue().equals(grantTypes[0]);
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
