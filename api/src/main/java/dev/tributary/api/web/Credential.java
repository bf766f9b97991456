package dev.tributary.api.web;

import java.util.Objects;
import java.util.Set;

/**
 * What a caller signed in with: its kind decides what only the person themselves may see, and
 * its revocation keys name the revocations that end it (a live stream it opened closes when one
 * of them is announced on {@code Revocations.CHANNEL}).
 * @param kind the person's own session or token, a third-party app, or another way in
 * @param revocationKeys e.g. {@code token:<hash>}, {@code grant:<id>}, {@code jwt:<id>}, {@code session:<hash>}
 */
public record Credential(Kind kind, Set<String> revocationKeys) {

    /** How the caller signed in. */
    public enum Kind {
        /** The web front end's signed-in browser session. */
        SESSION,
        /** One of the person's personal access tokens. */
        PERSONAL_TOKEN,
        /** A third-party app's OAuth access token. */
        APP,
        /** Compatibility APIs (Fever, Google Reader) and anything else: treated as a third party. */
        OTHER
    }

    /** A caller whose credential nothing names. */
    public static final Credential UNNAMED = new Credential(Kind.OTHER, Set.of());

    public Credential {
        Objects.requireNonNull(kind, "kind");
        revocationKeys = Set.copyOf(revocationKeys);
    }

    /** The person's own session or personal token, as opposed to an app acting for them. */
    public boolean firstParty() {
        return kind == Kind.SESSION || kind == Kind.PERSONAL_TOKEN;
    }
}
