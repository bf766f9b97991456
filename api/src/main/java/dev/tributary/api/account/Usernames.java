package dev.tributary.api.account;

import java.util.regex.Pattern;

/** The rule for usernames: 3–30 of {@code [a-z0-9_]}, the same in urls, feeds and mentions. */
public final class Usernames {

    public static final int MAX_LENGTH = 30;
    /** Anchored: JSON Schema, where the contract states it, searches rather than matching whole. */
    public static final String REGEX = "^[a-z0-9_]{3,30}$";
    private static final Pattern PATTERN = Pattern.compile(REGEX);

    private Usernames() {
    }

    public static boolean valid(String name) {
        return name != null && PATTERN.matcher(name).matches();
    }
}
