package dev.tributary.pubsub;

/** The person has {@link Folders#MAX_FOLDERS} folders already. */
public class FolderLimitException extends PubsubException {

    public FolderLimitException() {
        super("at most " + Folders.MAX_FOLDERS + " folders a person");
    }
}
