package dev.tributary.api.security;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** A password login failed: wrong credentials, or (with {@code retryAfter}) too many recent failures. */
public class LoginRefusedException extends RuntimeException {

    private final @Nullable Duration retryAfter;

    LoginRefusedException(String message, @Nullable Duration retryAfter) {
        super(message);
        this.retryAfter = retryAfter;
    }

    /** Set when the login was throttled: how long until another attempt is considered. */
    public @Nullable Duration retryAfter() {
        return retryAfter;
    }
}
