package dev.tributary.api.security;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A password login failed: wrong credentials, or (with {@code retryAfter}) throttled, either for
 * too many recent failures or ({@code busy}) for too many checks of the account or address in
 * flight at once.
 */
public class LoginRefusedException extends RuntimeException {

    private final @Nullable Duration retryAfter;
    private final boolean busy;

    LoginRefusedException(String message, @Nullable Duration retryAfter, boolean busy) {
        super(message);
        this.retryAfter = retryAfter;
        this.busy = busy;
    }

    /** Set when the login was throttled: how long until another attempt is considered. */
    public @Nullable Duration retryAfter() {
        return retryAfter;
    }

    /** Throttled because other checks were in flight, not because of failures: nothing is locked. */
    public boolean busy() {
        return busy;
    }
}
