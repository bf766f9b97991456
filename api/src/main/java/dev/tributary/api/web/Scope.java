package dev.tributary.api.web;

import java.util.Arrays;
import java.util.Optional;

/** What a token may do: {@code read} for GET, {@code write} for everything else. */
public enum Scope {
    READ, WRITE;

    /** The name clients send and tokens carry. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The Spring Security authority a token with this scope holds. */
    public String authority() {
        return "SCOPE_" + wireName();
    }

    public static Optional<Scope> parse(String name) {
        return Arrays.stream(values()).filter(s -> s.wireName().equals(name)).findFirst();
    }
}
