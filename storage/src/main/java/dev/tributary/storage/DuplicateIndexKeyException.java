package dev.tributary.storage;

import java.util.List;

/** A write would give a unique index a second entity for the same key; nothing was written. */
public class DuplicateIndexKeyException extends StorageException {

    private final String index;
    private final List<Long> ids;

    /** {@code ids} are the entities of the failed write; for a batch the database does not say which one clashed. */
    public DuplicateIndexKeyException(String index, List<Long> ids, Throwable cause) {
        super("unique index '" + index + "' already holds a key of entity "
                + (ids.size() == 1 ? ids.getFirst() : "(one of) " + abbreviate(ids)), cause);
        this.index = index;
        this.ids = List.copyOf(ids);
    }

    public String index() {
        return index;
    }

    public List<Long> ids() {
        return ids;
    }

    private static String abbreviate(List<Long> ids) {
        return ids.size() <= 10 ? ids.toString() : ids.subList(0, 10) + " and " + (ids.size() - 10) + " more";
    }
}
