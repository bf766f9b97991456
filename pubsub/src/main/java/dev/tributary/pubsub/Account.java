package dev.tributary.pubsub;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A person's account (the body of a {@code user} entity; its id is the person's id everywhere).
 * {@code feedToken} stands for the secret in the private feed url: the api stores a hash of it
 * (accounts from before issue 52 may still hold the secret in clear until it is next used), and it
 * is looked up through an index as given.
 * {@code passwordHash} is stored as given: hashing and checking passwords is the api's business.
 */
public record Account(String username, String passwordHash, @Nullable String email, String feedToken, Instant createdAt) {

    public Account {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(passwordHash, "passwordHash");
        Objects.requireNonNull(feedToken, "feedToken");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    Account withPasswordHash(String hash) {
        return new Account(username, hash, email, feedToken, createdAt);
    }

    Account withFeedToken(String token) {
        return new Account(username, passwordHash, email, token, createdAt);
    }
}
