package dev.tributary.pubsub;

/** No source has this id (or it is of another kind than asked). */
public class SourceNotFoundException extends PubsubException {

    private final long sourceId;

    public SourceNotFoundException(long sourceId) {
        super("source " + sourceId + " does not exist");
        this.sourceId = sourceId;
    }

    public long sourceId() {
        return sourceId;
    }
}
