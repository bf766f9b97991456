package dev.tributary.pubsub;

import java.time.Instant;

/** A group owner's pending invitation of a person to their group. */
public record Invitation(long id, long groupId, long userId, long inviterId, Instant createdAt) {
}
