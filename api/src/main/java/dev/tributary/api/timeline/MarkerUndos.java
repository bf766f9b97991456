package dev.tributary.api.timeline;

import dev.tributary.pubsub.HomeFeed;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * What a marker marked, kept for a while so that it can be undone exactly: the entries it turned
 * read become unread again, and nothing else (an entry that was read before the marker stays
 * read). Kept in Redis under the person's hash tag for {@link #KEPT}; an undo takes it (once).
 * Losing it (Redis restarted) only means that marker can no longer be undone.
 */
@Component
class MarkerUndos {

    private static final Logger log = LoggerFactory.getLogger(MarkerUndos.class);

    /** How long a marker can be undone. */
    static final Duration KEPT = Duration.ofMinutes(15);
    private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final StringRedisTemplate redis;
    private final HomeFeed home;

    MarkerUndos(StringRedisTemplate redis, HomeFeed home) {
        this.redis = redis;
        this.home = home;
    }

    /** Keeps what a marker marked; its id for the undo, or null if nothing was marked or Redis refused. */
    @Nullable String keep(long userId, Collection<Long> marked) {
        if (marked.isEmpty()) {
            return null;
        }
        String id = HexFormat.of().formatHex(randomBytes());
        StringBuilder ids = new StringBuilder(marked.size() * 20);
        for (long item : marked) {
            if (!ids.isEmpty()) {
                ids.append(',');
            }
            ids.append(Long.toString(item, Character.MAX_RADIX));
        }
        try {
            redis.opsForValue().set(key(userId, id), ids.toString(), KEPT);
            return id;
        } catch (DataAccessException | IllegalStateException redisTrouble) {
            log.warn("could not keep marker of {} for undo ({} entries): {}", userId, marked.size(), redisTrouble.toString());
            return null;
        }
    }

    /**
     * Undoes a kept marker: its entries unread again (those still in the inbox and read); how many
     * changed, or empty if there is no such marker of the person's (never kept, undone, or expired).
     */
    Optional<Integer> undo(long userId, String id) {
        if (!ID.matcher(id).matches()) {
            return Optional.empty();
        }
        String kept = redis.opsForValue().getAndDelete(key(userId, id));
        if (kept == null) {
            return Optional.empty();
        }
        List<Long> items = new ArrayList<>();
        for (String item : kept.split(",")) {
            items.add(Long.parseLong(item, Character.MAX_RADIX));
        }
        int changed = 0;
        for (int from = 0; from < items.size(); from += HomeFeed.MAX_MARKS) {
            changed += home.markUnread(userId, items.subList(from, Math.min(items.size(), from + HomeFeed.MAX_MARKS)));
        }
        return Optional.of(changed);
    }

    private static String key(long userId, String id) {
        return "marker-undo:{" + userId + "}:" + id;
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return bytes;
    }
}
