package dev.tributary.api.web;

import java.util.Objects;
import java.util.Set;

/**
 * Who is calling the API: the person a bearer token acts for, the scopes it carries and the
 * credential it is. Controllers take it as a parameter; every read and write of personal data is
 * keyed by {@code userId}.
 */
public record Caller(long userId, Set<Scope> scopes, Credential credential) {

    public Caller {
        Objects.requireNonNull(scopes, "scopes");
        Objects.requireNonNull(credential, "credential");
        scopes = Set.copyOf(scopes);
    }

    /** A caller whose credential is neither first-party nor revocable by name. */
    public Caller(long userId, Set<Scope> scopes) {
        this(userId, scopes, Credential.UNNAMED);
    }
}
