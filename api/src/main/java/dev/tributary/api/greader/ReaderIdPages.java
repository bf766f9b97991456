package dev.tributary.api.greader;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.RedisFailures;
import dev.tributary.pubsub.TimelineStamps;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Id lists of inbox streams kept per node while the person's stamp holds: it moves with every
 * change to their inbox (deliveries, retractions, read marks), their stars and their folders, so
 * a kept answer is the one MySQL would give. Apps ask for the same lists (every unread id, every
 * starred id) on each sync; an unchanged inbox is then one Redis round trip. Walks over stars are
 * not kept (a tombstoned starred item leaves them without moving the person's stamp).
 */
@Component
class ReaderIdPages {

    private static final Logger log = LoggerFactory.getLogger(ReaderIdPages.class);
    /** Well inside the stamps' own lifetime ({@link TimelineStamps#TTL}). */
    private static final Duration TTL = Duration.ofMinutes(10);
    private static final long CACHE_CHARS = 32L << 20;

    private record Key(long userId, StreamQuery query) {
    }

    private record Kept(String epoch, @Nullable String stamp, String json) {
    }

    private final HomeFeed home;
    private final Cache<Key, Kept> kept = Caffeine.newBuilder().maximumWeight(CACHE_CHARS)
            .weigher((Key key, Kept answer) -> answer.json().length() + 64).expireAfterWrite(TTL).build();

    ReaderIdPages(HomeFeed home) {
        this.home = home;
    }

    /** The answer for this query: kept if its stamps hold, else read (under stamps read first) and kept. */
    String answer(long userId, StreamQuery query, boolean cacheable, Supplier<String> read) {
        if (!cacheable) {
            return read.get();
        }
        TimelineStamps stamps;
        try {
            stamps = home.stamps(userId, List.of());
        } catch (DataAccessException trouble) {
            RedisFailures.rethrowUnlessRedis(trouble);
            log.warn("Google Reader id cache bypassed: {}", trouble.getMessage());
            return read.get();
        }
        Key key = new Key(userId, query);
        Kept answer = kept.getIfPresent(key);
        if (answer != null && Objects.equals(answer.epoch(), stamps.epoch()) && Objects.equals(answer.stamp(), stamps.person())) {
            return answer.json();
        }
        String json = read.get();
        if (stamps.epoch() != null) {
            kept.put(key, new Kept(stamps.epoch(), stamps.person(), json));
        }
        return json;
    }
}
