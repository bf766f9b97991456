package dev.tributary.api.security;

import dev.tributary.api.web.Caller;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** An authenticated bearer token: its principal is the {@link Caller}, its authorities the scopes. */
public class CallerAuthentication extends AbstractAuthenticationToken {

    private final Caller caller;

    public CallerAuthentication(Caller caller) {
        super(caller.scopes().stream().map(s -> new SimpleGrantedAuthority(s.authority())).toList());
        this.caller = caller;
        setAuthenticated(true);
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Caller getPrincipal() {
        return caller;
    }
}
