package dev.tributary.storage;

/** No entity has the id asked for (or the id can never exist, such as 0 or a negative one). */
public class EntityNotFoundException extends StorageException {

    private final long id;

    public EntityNotFoundException(long id) {
        super("entity " + id + " not found");
        this.id = id;
    }

    public long id() {
        return id;
    }
}
