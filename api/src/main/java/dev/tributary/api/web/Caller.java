package dev.tributary.api.web;

import java.util.Objects;
import java.util.Set;

/**
 * Who is calling the API: the person a bearer token acts for and the scopes it carries. Controllers
 * take it as a parameter; every read and write of personal data is keyed by {@code userId}.
 */
public record Caller(long userId, Set<Scope> scopes) {

    public Caller {
        Objects.requireNonNull(scopes, "scopes");
        scopes = Set.copyOf(scopes);
    }
}
