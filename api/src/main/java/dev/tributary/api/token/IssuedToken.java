package dev.tributary.api.token;

/** A token just created, with its secret: the only time the secret exists outside the client. */
public record IssuedToken(PersonalToken token, String secret) {
}
