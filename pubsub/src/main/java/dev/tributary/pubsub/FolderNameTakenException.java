package dev.tributary.pubsub;

/** The person already has a folder of this name (compared without regard to case). */
public class FolderNameTakenException extends PubsubException {

    public FolderNameTakenException(String name) {
        super("a folder called '" + name + "' exists already");
    }
}
