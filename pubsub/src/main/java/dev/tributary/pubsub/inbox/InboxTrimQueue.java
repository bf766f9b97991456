package dev.tributary.pubsub.inbox;

import java.util.Collection;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * People whose inbox received entries since the last trim (a Redis set). Only a hint: losing it
 * leaves inboxes longer than the window on disk for a while, never a wrong timeline, because
 * timeline reads bound themselves to the newest N entries anyway.
 */
@Component
class InboxTrimQueue {

    static final String KEY = "tributary:inbox:trim";

    private final StringRedisTemplate redis;

    InboxTrimQueue(StringRedisTemplate redis) {
        this.redis = redis;
    }

    void add(Collection<Long> users) {
        if (!users.isEmpty()) {
            redis.opsForSet().add(KEY, users.stream().map(String::valueOf).toArray(String[]::new));
        }
    }

    long size() {
        Long size = redis.opsForSet().size(KEY);
        return size == null ? 0 : size;
    }

    /** Takes up to {@code count} people off the queue. */
    List<Long> take(int count) {
        List<String> taken = redis.opsForSet().pop(KEY, count);
        return taken == null ? List.of() : taken.stream().map(Long::valueOf).toList();
    }
}
