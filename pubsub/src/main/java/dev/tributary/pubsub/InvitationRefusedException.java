package dev.tributary.pubsub;

/** The person refuses invitations from this group (they blocked it). */
public final class InvitationRefusedException extends PubsubException {

    public InvitationRefusedException(long groupId, long userId) {
        super("person " + userId + " refuses invitations from group " + groupId);
    }
}
