package dev.tributary.api.timeline;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Switches;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * A person's unread counts as {@code GET /api/v1/unread} answers them, kept per node as JSON under
 * the version {@link HomeFeed#unreadVersion} reads in one small round trip: a client polling its
 * counts gets them without their counter hash being read, parsed and rendered each time. The
 * version moves after every change to the counts or the folders, so the answer is the one the
 * counters would give; people who follow pulled sources have none and are read every time.
 */
@Component
class KeptCounts {

    private static final Logger log = LoggerFactory.getLogger(KeptCounts.class);
    /** As long as kept pages' entries: the bound left for a node that died between a commit and its stamp moves. */
    private static final Duration KEPT_FOR = Duration.ofMinutes(10);

    private record Kept(String version, byte[] json) {
    }

    private final HomeFeed home;
    private final JsonMapper json;
    private final Switches switches;
    private final boolean enabled;
    private final Cache<Long, Kept> kept;

    KeptCounts(HomeFeed home, JsonMapper json, Switches switches, PageCacheSettings settings) {
        this.home = home;
        this.json = json;
        this.switches = switches;
        this.enabled = settings.enabled();
        this.kept = Caffeine.newBuilder().maximumWeight(settings.countBytes().toBytes())
                .weigher((Long user, Kept counts) -> counts.json().length + counts.version().length() + 64)
                .expireAfterWrite(KEPT_FOR).build();
    }

    /** The person's {@link UnreadView} as JSON. */
    byte[] unread(long userId) {
        if (!enabled || !switches.isOn(Feature.PAGE_CACHE)) {
            kept.invalidateAll();
            return render(userId);
        }
        String version = version(userId);
        Kept counts = kept.getIfPresent(userId);
        if (version != null && counts != null && counts.version().equals(version)) {
            return counts.json();
        }
        byte[] rendered = render(userId);
        if (version != null) {
            kept.put(userId, new Kept(version, rendered));
        }
        return rendered;
    }

    private @Nullable String version(long userId) {
        try {
            return home.unreadVersion(userId);
        } catch (DataAccessException redisTrouble) {
            log.debug("Unread counts not kept: {}", redisTrouble.getMessage());
            return null;
        }
    }

    private byte[] render(long userId) {
        return json.writeValueAsBytes(UnreadView.of(home.unreadByFolder(userId)));
    }
}
