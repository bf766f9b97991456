package dev.tributary.storage;

/** Base of every failure the storage layer reports on purpose; callers may catch this one type. */
public class StorageException extends RuntimeException {

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
