package dev.tributary.pubsub;

import dev.tributary.storage.Entity;

/** One entry of a home timeline: the item and whether its reader has read it. */
public record TimelineEntry(Entity<Item> item, boolean read) {

    public long id() {
        return item.id();
    }
}
