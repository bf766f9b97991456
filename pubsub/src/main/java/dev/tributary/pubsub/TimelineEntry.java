package dev.tributary.pubsub;

/** One entry of a home timeline: the item and whether its reader has read it. */
public record TimelineEntry(Stored<Item> item, boolean read) {

    public long id() {
        return item.id();
    }
}
