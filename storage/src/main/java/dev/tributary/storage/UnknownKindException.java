package dev.tributary.storage;

/** A stored row (or a caller) names a kind that no {@link EntityKind} bean registers. */
public class UnknownKindException extends StorageException {

    private final long id;
    private final String kind;

    public UnknownKindException(long id, String kind) {
        super("entity " + id + " has kind '" + kind + "', which is not registered");
        this.id = id;
        this.kind = kind;
    }

    public long id() {
        return id;
    }

    public String kind() {
        return kind;
    }
}
