package dev.tributary.api.group;

import java.time.Instant;

/** A pending invitation to a group, as the invited person (or the owner who sent it) sees it. */
record InvitationView(String id, String groupId, String groupName, String username, String invitedBy, Instant createdAt) {
}
