package dev.tributary.api.hub;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A verified subscription, as a delivery sees it.
 *
 * @param version the topic changes marked on it so far: a delivery clears the pending mark only if
 *        no change came after the one it sent
 * @param attempts failed tries of the content pending
 * @param nextAttemptAt when the pending content is (was) due: when the change was noticed, for a first try
 */
record Subscriber(long id, String topicKey, String topicUrl, String callback, String callbackHost, long ownerId,
        @Nullable String secret, Instant leaseUntil, int version, int attempts,
        @Nullable Instant nextAttemptAt) {
}
