package dev.tributary.api.token;

import dev.tributary.api.web.Scope;
import java.time.Instant;
import java.util.Set;

/**
 * A personal access token as listed: everything but the secret, which is shown once at creation;
 * {@code fever} says whether it also signs in Fever apps.
 */
public record PersonalToken(long id, long userId, String name, Set<Scope> scopes, Instant createdAt, boolean fever) {

    public PersonalToken {
        scopes = Set.copyOf(scopes);
    }
}
