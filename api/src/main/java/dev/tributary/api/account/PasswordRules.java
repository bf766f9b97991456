package dev.tributary.api.account;

import java.nio.charset.StandardCharsets;

/** What a password must be, wherever one is set (sign-up, a password change). */
public final class PasswordRules {

    /** bcrypt reads at most 72 bytes; a longer password would be silently cut, so it is refused. */
    public static final int MAX_BYTES = 72;
    /** The message for a password longer than {@link #MAX_BYTES}. */
    public static final String TOO_LONG = "must be at most 72 bytes in UTF-8";

    private PasswordRules() {
    }

    public static boolean fitsBcrypt(String password) {
        return password.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES;
    }
}
