package dev.tributary.api.group;

import java.time.Instant;

/** A group: {@code source_id} is the source its members post to, which anyone may follow. */
record GroupView(String id, String name, String sourceId, String ownerId, Instant createdAt) {
}
