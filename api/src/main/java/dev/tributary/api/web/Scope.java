package dev.tributary.api.web;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a token may do: {@code read} for GET, {@code write} for everything else, and
 * {@code account} for managing the account itself (its tokens, the apps it authorised, its feed
 * token and password). Only the person holds {@code account}: their browser session always, a
 * personal token when created with it; an OAuth app can never be granted it ({@link #FOR_APPS}),
 * so an app with {@code write} cannot revoke the person's other credentials or lock them out.
 */
public enum Scope {
    READ, WRITE, ACCOUNT;

    /** The scopes an OAuth app may register for, ask for and be granted. */
    public static final Set<Scope> FOR_APPS = Set.copyOf(EnumSet.of(READ, WRITE));

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

    /** A scope an OAuth app may hold; empty for {@code account} and unknown names. */
    public static Optional<Scope> parseForApp(String name) {
        return parse(name).filter(FOR_APPS::contains);
    }
}
