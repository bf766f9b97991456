package dev.tributary.api.security;

import dev.tributary.api.web.Caller;
import java.util.Optional;

/**
 * One kind of bearer token the API accepts (personal access tokens, OAuth access tokens). Each
 * recognises its own tokens by form, so a token is checked by exactly one of them.
 */
public interface BearerTokenAuthenticator {

    /** Whether {@code token} has this kind's form (a prefix, a JWT's shape). */
    boolean supports(String token);

    /** The caller the token acts for; empty if it is unknown, expired or revoked. */
    Optional<Caller> authenticate(String token);
}
