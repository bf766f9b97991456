package dev.tributary.api.oauth;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/signingkeys} on the management port (loopback only): lists the access-token
 * signing keys (ids and dates, never key material), and {@code POST} rotates them: a new key
 * signs from {@link SigningKeys#ACTIVATION_DELAY} on, on every node, and the current one keeps
 * verifying the tokens it signed until they expire (docs/security.md).
 */
@Component
@Endpoint(id = "signingkeys")
class SigningKeysEndpoint {

    /** A key as the operator sees it. */
    record KeyView(String kid, Instant createdAt, Instant activatesAt, boolean signing) {
    }

    private final SigningKeyRing ring;

    SigningKeysEndpoint(SigningKeyRing ring) {
        this.ring = ring;
    }

    @ReadOperation
    Map<String, List<KeyView>> keys() {
        String signing = ring.signing().getKeyID();
        return Map.of("keys", ring.keys().stream().map(key -> new KeyView(key.jwk().getKeyID(), key.createdAt(),
                key.activatesAt(), key.jwk().getKeyID().equals(signing))).toList());
    }

    @WriteOperation
    KeyView rotate() {
        SigningKeys.Key added = ring.rotate();
        return new KeyView(added.jwk().getKeyID(), added.createdAt(), added.activatesAt(), false);
    }
}
