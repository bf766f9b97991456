package dev.tributary.api.timeline;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Switches;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * A person's unread counts as {@code GET /api/v1/unread} answers them, kept per node as JSON under
 * the version {@link HomeFeed#unreadVersion} reads in one small round trip: a client polling its
 * counts gets them without their counter hash (and their pulled sources' statement) being read,
 * parsed and rendered each time. The version moves after every change to the counts or the
 * folders, and counts that age on their own (an unread pulled item leaving the horizon) are kept
 * only until then, so the answer is the one a fresh read would give. Live streams' renders, which
 * read the counts of every stream a publish reached, leave them here too ({@link #keep}).
 */
@Component
public class KeptCounts {

    private static final Logger log = LoggerFactory.getLogger(KeptCounts.class);
    /** As long as kept pages' entries: the bound left for a node that died between a commit and its stamp moves. */
    private static final Duration KEPT_FOR = Duration.ofMinutes(10);

    private record Kept(String version, byte[] json, @Nullable Instant agesAt) {
    }

    private final HomeFeed home;
    private final UnreadReads reads;
    private final JsonMapper json;
    private final Switches switches;
    private final boolean enabled;
    private final Clock clock;
    private final Cache<Long, Kept> kept;

    KeptCounts(HomeFeed home, UnreadReads reads, JsonMapper json, Switches switches, PageCacheSettings settings,
            ObjectProvider<Clock> clock) {
        this.home = home;
        this.reads = reads;
        this.json = json;
        this.switches = switches;
        this.enabled = settings.enabled();
        this.clock = clock.getIfAvailable(Clock::systemUTC);
        this.kept = Caffeine.newBuilder().maximumWeight(settings.countBytes().toBytes())
                .weigher((Long user, Kept counts) -> counts.json().length + counts.version().length() + 64)
                .expireAfterWrite(KEPT_FOR).build();
    }

    /** The person's {@link UnreadView} as JSON. */
    byte[] unread(long userId) {
        if (!isOn()) {
            kept.invalidateAll();
            return json.writeValueAsBytes(UnreadView.of(read(userId)));
        }
        String version = version(userId);
        Kept counts = kept.getIfPresent(userId);
        if (version != null && counts != null && counts.version().equals(version)
                && (counts.agesAt() == null || !clock.instant().isAfter(counts.agesAt()))) {
            return counts.json();
        }
        // Read after the version: a change committed meanwhile moves it after this read.
        HomeFeed.UnreadByFolder read = read(userId);
        byte[] rendered = json.writeValueAsBytes(UnreadView.of(read));
        if (version != null) {
            kept.put(userId, new Kept(version, rendered, read.agesAt()));
        }
        return rendered;
    }

    /**
     * The versions of these people's counts, to read before their counts are read together (one
     * round trip; empty when counts are not kept or Redis failed).
     */
    public Map<Long, String> versions(Collection<Long> people) {
        if (!isOn()) {
            return Map.of();
        }
        try {
            return home.unreadVersions(people);
        } catch (DataAccessException redisTrouble) {
            log.debug("Unread counts not kept: {}", redisTrouble.getMessage());
            return Map.of();
        }
    }

    /**
     * Keeps counts read elsewhere (as {@link UnreadView} JSON, exactly as {@link #unread} renders
     * them) under the version {@link #versions} gave before they were read; a null version keeps nothing.
     */
    public void keep(long userId, @Nullable String version, byte[] counts, HomeFeed.UnreadByFolder read) {
        if (version != null && isOn()) {
            kept.put(userId, new Kept(version, counts, read.agesAt()));
        }
    }

    /** The person's counts, read with other requests' that missed too ({@link UnreadReads}). */
    private HomeFeed.UnreadByFolder read(long userId) {
        try {
            return reads.unreadByFolder(userId);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading unread counts", e);
        }
    }

    private boolean isOn() {
        return enabled && switches.isOn(Feature.PAGE_CACHE);
    }

    private @Nullable String version(long userId) {
        try {
            return home.unreadVersion(userId);
        } catch (DataAccessException redisTrouble) {
            log.debug("Unread counts not kept: {}", redisTrouble.getMessage());
            return null;
        }
    }
}
