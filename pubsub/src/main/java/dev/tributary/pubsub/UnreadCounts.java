package dev.tributary.pubsub;

import org.springframework.stereotype.Service;

/** A person's exact unread counts, read in O(1) from Redis and rebuilt from MySQL when Redis lost them. */
@Service
public class UnreadCounts {

    private final UnreadCounters counters;

    UnreadCounts(UnreadCounters counters) {
        this.counters = counters;
    }

    public Unread of(long userId) {
        return counters.read(userId);
    }
}
