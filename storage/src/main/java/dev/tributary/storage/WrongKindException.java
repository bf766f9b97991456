package dev.tributary.storage;

/** The entity exists but is of another kind than the caller asked for or tried to write. */
public class WrongKindException extends StorageException {

    private final long id;
    private final String expected;
    private final String actual;

    public WrongKindException(long id, String expected, String actual) {
        super("entity " + id + " is of kind '" + actual + "', not '" + expected + "'");
        this.id = id;
        this.expected = expected;
        this.actual = actual;
    }

    public long id() {
        return id;
    }

    public String expected() {
        return expected;
    }

    public String actual() {
        return actual;
    }
}
