package dev.tributary.api.security;

import dev.tributary.api.account.StoredAccount;
import dev.tributary.api.account.Accounts;
import dev.tributary.pubsub.Account;
import java.time.Duration;
import java.util.Optional;
import org.springframework.stereotype.Service;

/**
 * Checks a username and password, throttled per account and per client address. Every way in
 * by password (HTTP Basic for token creation, the OAuth login form) goes through here.
 */
@Service
public class PasswordLogin {

    private final Accounts accounts;
    private final LoginThrottle throttle;

    PasswordLogin(Accounts accounts, LoginThrottle throttle) {
        this.accounts = accounts;
        this.throttle = throttle;
    }

    /**
     * The account, if the password is its own.
     * @throws LoginRefusedException for wrong credentials, or with a retry-after when throttled
     */
    public StoredAccount authenticate(String username, String password, String clientAddress) {
        String name = username == null ? "" : username.toLowerCase(java.util.Locale.ROOT);
        Optional<LoginThrottle.Refusal> refused = throttle.attempt(name, clientAddress);
        if (refused.isPresent()) {
            throw refused.get().busy()
                    ? new LoginRefusedException("Too many sign-ins to this account or from this address are being "
                            + "checked at once; try again in a moment.", refused.get().retryAfter(), true)
                    : new LoginRefusedException("Too many failed logins; try again later.", refused.get().retryAfter(), false);
        }
        Optional<StoredAccount> account;
        boolean matches;
        try {
            account = accounts.findByUsername(name);
            matches = account.isPresent() && accounts.passwordMatches(account.get().body(), password);
        } catch (RuntimeException unchecked) {
            throttle.abandoned(name, clientAddress);
            throw unchecked;
        }
        if (matches) {
            throttle.succeeded(name, clientAddress);
            return account.get();
        }
        throttle.failed(name, clientAddress);
        throw new LoginRefusedException("Wrong username or password.", null, false);
    }
}
