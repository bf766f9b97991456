package dev.tributary.pubsub;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A person's linked XMPP address and what it receives.
 *
 * @param address the bare address as linked (normalised by the caller)
 * @param verifiedAt when the code came back; null while unproved (nothing is sent to it but the code)
 * @param deliver what it receives: {@code home}, {@code folder} or {@code starred}
 * @param folderId the folder, when {@code deliver} is {@code folder}
 */
public record XmppLink(long id, String address, @Nullable Instant verifiedAt, String deliver, @Nullable Long folderId,
        Instant createdAt) {

    /** Whether the address was proved. */
    public boolean verified() {
        return verifiedAt != null;
    }
}
