package dev.tributary.api.token;

import org.springframework.stereotype.Component;

/** Revoking every personal token of a person at once, on every node, as revoking one does. */
@Component
public class TokenRevocation {

    private final PersonalTokens tokens;
    private final PersonalTokenAuthenticator authenticator;

    TokenRevocation(PersonalTokens tokens, PersonalTokenAuthenticator authenticator) {
        this.tokens = tokens;
        this.authenticator = authenticator;
    }

    /** Revokes each of the person's tokens (their Fever keys and Google Reader logins with them); returns how many. */
    public int revokeAll(long userId) {
        int revoked = 0;
        for (PersonalToken token : tokens.of(userId)) {
            var hash = tokens.revoke(userId, token.id());
            if (hash.isPresent()) {
                authenticator.revoked(hash.get());
                revoked++;
            }
        }
        return revoked;
    }
}
