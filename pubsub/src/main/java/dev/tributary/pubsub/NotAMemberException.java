package dev.tributary.pubsub;

/** Only members may post to a group. */
public class NotAMemberException extends PubsubException {

    public NotAMemberException(long groupId, long userId) {
        super("user " + userId + " is not a member of group " + groupId);
    }
}
