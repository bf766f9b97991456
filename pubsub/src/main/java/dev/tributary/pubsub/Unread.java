package dev.tributary.pubsub;

import java.util.Map;

/** A person's exact unread counts: in total, per source id and per media type (zeros left out). */
public record Unread(long total, Map<Long, Long> bySource, Map<MediaType, Long> byMedia) {

    public Unread {
        bySource = Map.copyOf(bySource);
        byMedia = Map.copyOf(byMedia);
    }
}
