package dev.tributary.api.security;

import java.util.List;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderNotFoundException;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.stereotype.Component;

/** Authenticates the API's bearer tokens by handing each to the one authenticator that knows its form. */
@Component
class ApiBearerAuthentication implements AuthenticationManager {

    private final List<BearerTokenAuthenticator> authenticators;

    ApiBearerAuthentication(List<BearerTokenAuthenticator> authenticators) {
        this.authenticators = List.copyOf(authenticators);
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        // Being the context's only AuthenticationManager bean, this is also the parent of other chains'
        // managers (the OAuth server's): what is not a bearer token is not ours, so theirs stands.
        if (!(authentication instanceof BearerTokenAuthenticationToken bearer)) {
            throw new ProviderNotFoundException("not a bearer token");
        }
        String token = bearer.getToken();
        if (token.length() > 8192) {
            throw new InvalidBearerTokenException("The access token is not valid.");
        }
        return authenticators.stream().filter(a -> a.supports(token)).findFirst()
                .flatMap(a -> a.authenticate(token))
                .<Authentication>map(CallerAuthentication::new)
                .orElseThrow(() -> new InvalidBearerTokenException("The access token is unknown, expired or revoked."));
    }
}
