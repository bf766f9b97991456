package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.storage.Transactions;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Version stamps in Redis for what a home-timeline page shows, so that a reader may keep a page
 * and know with one round trip whether it still holds: a person's version moves with every
 * change to their inbox (delivery, retraction, read marks), an item's with every change to it
 * (edit, tombstone, like, comment). Stamps move only after the change commits, so a reader that
 * saw the old stamp re-reads the database at its next request; an epoch key, re-drawn when Redis
 * lost it, voids every stamp handed out before.
 */
@Component
class PageStamps {

    private static final String EPOCH = "tributary:tl:epoch";
    private static final SecureRandom RANDOM = new SecureRandom();

    private static final Logger log = LoggerFactory.getLogger(PageStamps.class);

    private final StringRedisTemplate redis;
    private final Transactions tx;

    PageStamps(StringRedisTemplate redis, Transactions tx) {
        this.redis = redis;
        this.tx = tx;
    }

    /** The epoch, the person's stamp and the items' stamps, in one round trip. */
    TimelineStamps read(long userId, List<Long> itemIds) {
        List<String> keys = new ArrayList<>(itemIds.size() + 2);
        keys.add(EPOCH);
        keys.add(personKey(userId));
        itemIds.forEach(id -> keys.add(itemKey(id)));
        List<String> values = redis.opsForValue().multiGet(keys);
        String epoch = values.get(0) != null ? values.get(0) : newEpoch();
        return new TimelineStamps(epoch, values.get(1), values.subList(2, values.size()));
    }

    /** Moves these people's stamps once the caller's transaction commits (at once outside one). */
    void peopleChanged(Collection<Long> userIds) {
        if (!userIds.isEmpty()) {
            List<String> keys = userIds.stream().map(PageStamps::personKey).toList();
            tx.afterCommit(() -> bump(keys));
        }
    }

    /** Moves these items' stamps once the caller's transaction commits (at once outside one). */
    void itemsChanged(Collection<Long> itemIds) {
        if (!itemIds.isEmpty()) {
            List<String> keys = itemIds.stream().map(PageStamps::itemKey).toList();
            tx.afterCommit(() -> bump(keys));
        }
    }

    /**
     * A fresh random value with its expiry per key, one {@code SET … EX} each (a stamp need only
     * differ from every earlier one, not count), pipelined: one round trip (per node of a cluster).
     * The change has committed: a Redis failure here must not fail it, and costs at most a page
     * kept for its minute.
     */
    private void bump(List<String> keys) {
        Expiration ttl = Expiration.seconds(TimelineStamps.TTL.toSeconds());
        try {
            redis.executePipelined((RedisCallback<Object>) connection -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                for (String key : keys) {
                    byte[] value = Long.toHexString(random.nextLong()).getBytes(StandardCharsets.UTF_8);
                    connection.stringCommands().set(key.getBytes(StandardCharsets.UTF_8), value, ttl, SetOption.upsert());
                }
                return null;
            });
        } catch (DataAccessException e) {
            log.warn("Could not move {} timeline stamps; cached pages may lag up to a minute: {}", keys.size(), e.getMessage());
        }
    }

    /** Draws the epoch if Redis has none (a fresh or flushed Redis), keeping a concurrent winner's. */
    private @Nullable String newEpoch() {
        redis.opsForValue().setIfAbsent(EPOCH, Long.toString(RANDOM.nextLong() & Long.MAX_VALUE));
        return redis.opsForValue().get(EPOCH);
    }

    private static String personKey(long userId) {
        return "tributary:tl:{" + userId + "}";
    }

    private static String itemKey(long itemId) {
        return "tributary:tl:item:" + itemId;
    }
}
