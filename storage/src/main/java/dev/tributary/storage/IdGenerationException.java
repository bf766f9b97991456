package dev.tributary.storage;

/** No id can be issued right now: the clock went backwards too far, or the node lease was lost. */
public class IdGenerationException extends StorageException {

    public IdGenerationException(String message) {
        super(message);
    }

    public IdGenerationException(String message, Throwable cause) {
        super(message, cause);
    }
}
