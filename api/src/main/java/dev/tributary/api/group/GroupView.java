package dev.tributary.api.group;

import java.time.Instant;

/**
 * A group: {@code source_id} is the source its members post to, which anyone may follow;
 * {@code open} whether anyone may join by themselves (else only by the owner's invitation).
 */
record GroupView(String id, String name, String sourceId, String ownerId, boolean open, Instant createdAt) {
}
