package dev.tributary.api.oauth;

import java.util.List;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;

/**
 * The client authentication methods an app may register, and so the ones the server advertises
 * and the contract's {@code token_endpoint_auth_method} enum lists: one list, so they cannot drift.
 */
public final class ClientAuthMethods {

    public static final List<String> ALL = List.of(
            ClientAuthenticationMethod.CLIENT_SECRET_BASIC.getValue(),
            ClientAuthenticationMethod.CLIENT_SECRET_POST.getValue(),
            ClientAuthenticationMethod.NONE.getValue());

    private ClientAuthMethods() {
    }
}
