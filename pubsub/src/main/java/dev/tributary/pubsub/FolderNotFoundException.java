package dev.tributary.pubsub;

/** The person has no folder with this id (someone else's counts as none). */
public class FolderNotFoundException extends PubsubException {

    private final long folderId;

    public FolderNotFoundException(long folderId) {
        super("folder " + folderId + " does not exist");
        this.folderId = folderId;
    }

    public long folderId() {
        return folderId;
    }
}
