package dev.tributary.pubsub;

/** No group has this id. */
public class GroupNotFoundException extends PubsubException {

    public GroupNotFoundException(long groupId) {
        super("group " + groupId + " does not exist");
    }
}
