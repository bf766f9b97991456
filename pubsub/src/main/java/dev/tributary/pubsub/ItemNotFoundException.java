package dev.tributary.pubsub;

/** No such item for this person: it does not exist, is tombstoned, or is not theirs to see (never says which). */
public class ItemNotFoundException extends PubsubException {

    public ItemNotFoundException(long itemId) {
        super("no item " + itemId + " for this person");
    }
}
