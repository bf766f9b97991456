package dev.tributary.pubsub;

/** A closed group admits only those its owner invited: nobody joins it by themselves. */
public class GroupClosedException extends PubsubException {

    public GroupClosedException(long groupId) {
        super("group " + groupId + " is closed: its owner invites its members");
    }
}
