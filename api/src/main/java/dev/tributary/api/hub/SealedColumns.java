package dev.tributary.api.hub;

import dev.tributary.api.oauth.SealedSecrets;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * What the hub's tables keep sealed with the deployment's key, so a copy of the database alone
 * cannot use it: a private home feed's url (it carries the feed token, which accounts keep only as
 * a hash) and a subscriber's {@code hub.secret} (it signs what the subscriber trusts). Public
 * exports' urls are kept as they are.
 */
@Component
class SealedColumns {

    private static final String PRIVATE = "home:";

    private final SealedSecrets secrets;

    SealedColumns(SealedSecrets secrets) {
        this.secrets = secrets;
    }

    String topicUrl(String topicKey, String url) {
        return topicKey.startsWith(PRIVATE) ? secrets.seal(url, "websub-hub topic " + topicKey) : url;
    }

    String readTopicUrl(String topicKey, String stored) {
        return SealedSecrets.isSealed(stored) ? secrets.open(stored, "websub-hub topic " + topicKey) : stored;
    }

    @Nullable String secret(String topicKey, @Nullable String secret) {
        return secret == null ? null : secrets.seal(secret, "websub-hub secret " + topicKey);
    }

    @Nullable String readSecret(String topicKey, @Nullable String stored) {
        return stored == null ? null : secrets.open(stored, "websub-hub secret " + topicKey);
    }
}
