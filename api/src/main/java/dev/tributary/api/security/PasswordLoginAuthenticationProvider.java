package dev.tributary.api.security;

import dev.tributary.api.account.StoredAccount;
import dev.tributary.pubsub.Account;
import java.time.Duration;
import java.util.List;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

/**
 * The browser login (the OAuth consent flow's form) checked by {@link PasswordLogin}, so it is
 * throttled like every password check. The authenticated name is the person's id, which the
 * authorization server then writes as tokens' {@code sub}; it holds only Spring Security's own
 * types, as the server stores it with each grant and reads back only allow-listed classes.
 */
class PasswordLoginAuthenticationProvider implements AuthenticationProvider {

    private final PasswordLogin login;

    PasswordLoginAuthenticationProvider(PasswordLogin login) {
        this.login = login;
    }

    /** The login was refused because of too many recent failures or checks in flight ({@code busy}), not because of this password. */
    static class ThrottledException extends AuthenticationException {

        private final Duration retryAfter;
        private final boolean busy;

        ThrottledException(String message, Duration retryAfter, boolean busy) {
            super(message);
            this.retryAfter = retryAfter;
            this.busy = busy;
        }

        Duration retryAfter() {
            return retryAfter;
        }

        boolean busy() {
            return busy;
        }
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String username = String.valueOf(authentication.getPrincipal());
        String password = authentication.getCredentials() == null ? "" : authentication.getCredentials().toString();
        String address = authentication.getDetails() instanceof WebAuthenticationDetails web && web.getRemoteAddress() != null
                ? web.getRemoteAddress() : "unknown";
        StoredAccount account;
        try {
            account = login.authenticate(username, password, address);
        } catch (LoginRefusedException refused) {
            if (refused.retryAfter() != null) {
                throw new ThrottledException(refused.getMessage(), refused.retryAfter(), refused.busy());
            }
            throw new BadCredentialsException(refused.getMessage());
        }
        UsernamePasswordAuthenticationToken result = UsernamePasswordAuthenticationToken.authenticated(
                Long.toString(account.id()), null, List.of(new SimpleGrantedAuthority("ROLE_USER")));
        result.setDetails(authentication.getDetails());
        return result;
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
