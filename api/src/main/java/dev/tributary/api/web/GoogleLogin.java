package dev.tributary.api.web;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The Auth value of a Google Reader call's {@code Authorization: GoogleLogin auth=…} header, read
 * the same way by the Reader API that checks it and by the rate limit that counts it.
 */
public final class GoogleLogin {

    private static final String SCHEME = "GoogleLogin auth=";
    /** Far above the Auth values ClientLogin hands out; anything longer is no Auth value. */
    public static final int MAX_AUTH_LENGTH = 200;

    private GoogleLogin() {
    }

    /** The Auth value of an {@code Authorization} header, if it is a well-formed GoogleLogin one. */
    public static Optional<String> auth(@Nullable String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.empty();
        }
        String auth = authorization.substring(SCHEME.length()).strip();
        return auth.isEmpty() || auth.length() > MAX_AUTH_LENGTH ? Optional.empty() : Optional.of(auth);
    }
}
