package dev.tributary.api.group;

/** A member of a group. */
record MemberView(String groupId, String userId, String username) {
}
