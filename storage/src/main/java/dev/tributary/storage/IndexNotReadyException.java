package dev.tributary.storage;

/** The index is still being back-filled (or was never registered), so its answers would be incomplete. */
public class IndexNotReadyException extends StorageException {

    private final String index;

    public IndexNotReadyException(String index, String state) {
        super("index '" + index + "' is not ready (state: " + state + ")");
        this.index = index;
    }

    public String index() {
        return index;
    }
}
