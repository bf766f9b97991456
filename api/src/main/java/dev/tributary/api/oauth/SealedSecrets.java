package dev.tributary.api.oauth;

/**
 * Secrets other parts keep in the database, sealed (AES-256-GCM) with the deployment's key, which
 * is not in the database: what a copy of the database alone cannot read.
 */
public final class SealedSecrets {

    private final KeyEncryptionKey key;

    SealedSecrets(KeyEncryptionKey key) {
        this.key = key;
    }

    /** {@code plain} sealed under {@code context} (what it is for: a value sealed for one context opens for no other). */
    public String seal(String plain, String context) {
        return key.seal(plain, context);
    }

    /** What {@link #seal} sealed under {@code context}; fails when another key sealed it or it was altered. */
    public String open(String sealed, String context) {
        return key.open(sealed, context);
    }

    /** Whether {@code stored} is a sealed value (as opposed to plain text stored before sealing). */
    public static boolean isSealed(String stored) {
        return stored.startsWith("v1.");
    }
}
