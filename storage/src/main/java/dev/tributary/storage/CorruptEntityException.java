package dev.tributary.storage;

/** A stored body could not be decoded (unknown format tag, bad compression, invalid JSON). */
public class CorruptEntityException extends StorageException {

    private final long id;

    public CorruptEntityException(long id, String problem, Throwable cause) {
        super("entity " + id + " has a corrupt body: " + problem, cause);
        this.id = id;
    }

    public long id() {
        return id;
    }
}
