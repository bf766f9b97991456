package dev.tributary.api.oauth;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationException;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2AuthorizationCodeRequestAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.context.AuthorizationServerContextHolder;
import org.springframework.security.web.DefaultRedirectStrategy;
import org.springframework.security.web.RedirectStrategy;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import org.springframework.util.StringUtils;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UriUtils;

/**
 * The authorization endpoint's redirects back to the app, as Spring's, plus RFC 9207's {@code iss}
 * (the issuer the metadata names) on the code and on every error, so a client talking to several
 * servers can tell which one answered (mix-up attacks). Advertised as
 * {@code authorization_response_iss_parameter_supported}.
 */
final class IssuerInAuthorizationResponse implements AuthenticationSuccessHandler, AuthenticationFailureHandler {

    private final RedirectStrategy redirects = new DefaultRedirectStrategy();

    @Override
    public void onAuthenticationSuccess(HttpServletRequest request, HttpServletResponse response, Authentication authentication)
            throws IOException {
        OAuth2AuthorizationCodeRequestAuthenticationToken authorized = (OAuth2AuthorizationCodeRequestAuthenticationToken) authentication;
        UriComponentsBuilder uri = UriComponentsBuilder.fromUriString(authorized.getRedirectUri())
                .queryParam(OAuth2ParameterNames.CODE, encode(authorized.getAuthorizationCode().getTokenValue()));
        redirect(request, response, uri, authorized.getState());
    }

    @Override
    public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        OAuth2Error error = failure instanceof OAuth2AuthenticationException oauth ? oauth.getError()
                : new OAuth2Error("invalid_request");
        OAuth2AuthorizationCodeRequestAuthenticationToken asked = failure instanceof OAuth2AuthorizationCodeRequestAuthenticationException codeRequest
                ? codeRequest.getAuthorizationCodeRequestAuthentication() : null;
        if (asked == null || !StringUtils.hasText(asked.getRedirectUri())) {
            // No redirect URI that was checked: the error stays here, never sent to an unverified address.
            response.sendError(HttpStatus.BAD_REQUEST.value(), error.toString());
            return;
        }
        UriComponentsBuilder uri = UriComponentsBuilder.fromUriString(asked.getRedirectUri())
                .queryParam(OAuth2ParameterNames.ERROR, encode(error.getErrorCode()));
        if (StringUtils.hasText(error.getDescription())) {
            uri.queryParam(OAuth2ParameterNames.ERROR_DESCRIPTION, encode(error.getDescription()));
        }
        if (StringUtils.hasText(error.getUri())) {
            uri.queryParam(OAuth2ParameterNames.ERROR_URI, encode(error.getUri()));
        }
        redirect(request, response, uri, asked.getState());
    }

    private void redirect(HttpServletRequest request, HttpServletResponse response, UriComponentsBuilder uri, @Nullable String state)
            throws IOException {
        if (StringUtils.hasText(state)) {
            uri.queryParam(OAuth2ParameterNames.STATE, encode(state));
        }
        uri.queryParam("iss", encode(AuthorizationServerContextHolder.getContext().getIssuer()));
        redirects.sendRedirect(request, response, uri.build(true).toUriString());
    }

    private static String encode(String value) {
        return UriUtils.encode(value, StandardCharsets.UTF_8);
    }
}
