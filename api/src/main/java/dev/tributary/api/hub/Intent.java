package dev.tributary.api.hub;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A subscription request accepted (202) whose intent the hub is verifying with the callback. */
record Intent(long id, Mode mode, String topicKey, String topicUrl, String callback, String callbackHost, long ownerId,
        @Nullable String secret, int leaseSeconds, Instant createdAt) {

    /** The two requests a subscriber makes. */
    enum Mode {
        SUBSCRIBE, UNSUBSCRIBE;

        String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
