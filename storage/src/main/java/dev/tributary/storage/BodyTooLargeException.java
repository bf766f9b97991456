package dev.tributary.storage;

/** A body's JSON is larger than {@code tributary.storage.max-body-bytes}; nothing was written. */
public class BodyTooLargeException extends StorageException {

    private final long id;

    public BodyTooLargeException(long id, long size, long max) {
        super("entity " + id + " body is " + size + " bytes of JSON, more than the maximum of " + max);
        this.id = id;
    }

    public long id() {
        return id;
    }
}
