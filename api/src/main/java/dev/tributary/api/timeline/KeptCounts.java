package dev.tributary.api.timeline;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.tributary.api.ratelimit.ReadAlong;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.KeptLifetime;
import dev.tributary.pubsub.RedisFailures;
import dev.tributary.pubsub.Switches;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
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
 * the version {@link HomeFeed#unreadVersion(long)} reads in one small round trip (on a single Redis
 * that of the request's rate limit, {@link UnreadVersionAlong}): a client polling its
 * counts gets them without their counter hash (and their pulled sources' statement) being read,
 * parsed and rendered each time. The version moves after every change to the counts or the
 * folders, and counts that age on their own (an unread pulled item leaving the horizon) are kept
 * only until then, so the answer is the one a fresh read would give. Live streams' renders, which
 * read the counts of every stream a publish reached, leave them here too ({@link #keep}).
 */
@Component
public class KeptCounts {

    private static final Logger log = LoggerFactory.getLogger(KeptCounts.class);
    /**
     * As long as kept pages' entries: the bound left for a node that died between a commit and its
     * stamp moves; each person's a little less, and counts first kept on this node up to three
     * quarters less ({@link KeptLifetime}). Stale counts stay until the bound only to tell a renewal
     * from a first keeping.
     */
    private static final Duration KEPT_FOR = Duration.ofMinutes(10);

    private record Kept(String version, byte[] json, @Nullable Instant agesAt, Instant freshUntil) {
    }

    private final HomeFeed home;
    private final UnreadReads reads;
    private final JsonMapper json;
    private final Switches switches;
    private final boolean enabled;
    private final Clock clock;
    private final Cache<Long, Kept> kept;
    /** Answers served kept and read, by how their version was read ({@link Version#along}). */
    private final Counter keptAlong;
    private final Counter keptApart;
    private final Counter readAlong;
    private final Counter readApart;

    KeptCounts(HomeFeed home, UnreadReads reads, JsonMapper json, Switches switches, PageCacheSettings settings,
            ObjectProvider<Clock> clock, ObjectProvider<MeterRegistry> registries) {
        this.home = home;
        this.reads = reads;
        this.json = json;
        this.switches = switches;
        this.enabled = settings.enabled();
        this.clock = clock.getIfAvailable(Clock::systemUTC);
        this.kept = Caffeine.newBuilder().maximumWeight(settings.countBytes().toBytes())
                .weigher((Long user, Kept counts) -> counts.json().length + counts.version().length() + 64)
                .expireAfterWrite(KEPT_FOR).build();
        MeterRegistry registry = registries.getIfAvailable(SimpleMeterRegistry::new);
        this.keptAlong = served(registry, "kept", "along");
        this.keptApart = served(registry, "kept", "apart");
        this.readAlong = served(registry, "read", "along");
        this.readApart = served(registry, "read", "apart");
    }

    private static Counter served(MeterRegistry registry, String outcome, String version) {
        return Counter.builder("tributary.api.unread.cache.reads").tag("outcome", outcome).tag("version", version)
                .description("unread answers served kept or read from Redis and MySQL, their version read along with the "
                        + "rate limit's count or apart").register(registry);
    }

    /**
     * The person's {@link UnreadView} as JSON; {@code along}: the version's keys as the request's
     * rate limit read them ({@link #versionKeys}), or null to read them here.
     */
    byte[] unread(long userId, ReadAlong.@Nullable Read along) {
        if (!isOn()) {
            kept.invalidateAll();
            readApart.increment();
            return json.writeValueAsBytes(UnreadView.of(read(userId)));
        }
        Version version = version(userId, along);
        byte[] counts = keptAt(userId, version.value(), clock.instant());
        if (counts != null) {
            (version.along() ? keptAlong : keptApart).increment();
            return counts;
        }
        // Read after the version: a change committed meanwhile moves it after this read.
        HomeFeed.UnreadByFolder read = read(userId);
        byte[] rendered = json.writeValueAsBytes(UnreadView.of(read));
        if (version.value() != null) {
            put(userId, version.value(), rendered, read);
        }
        (version.along() ? readAlong : readApart).increment();
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
        } catch (DataAccessException trouble) {
            RedisFailures.rethrowUnlessRedis(trouble);
            log.debug("Unread counts not kept: {}", trouble.getMessage());
            return Map.of();
        }
    }

    /**
     * The counts kept for these people under the versions {@link #versions} just read, by person:
     * theirs as a fresh read would give them, so a caller reads only the others'.
     */
    public Map<Long, byte[]> keptAt(Map<Long, String> versions) {
        if (!isOn()) {
            return Map.of();
        }
        Instant now = clock.instant();
        Map<Long, byte[]> found = new HashMap<>();
        versions.forEach((person, version) -> {
            byte[] counts = keptAt(person, version, now);
            if (counts != null) {
                found.put(person, counts);
            }
        });
        return found;
    }

    /** The person's kept counts if they were kept under {@code version} and have not aged since; else null. */
    private byte @Nullable [] keptAt(long userId, @Nullable String version, Instant now) {
        Kept counts = version == null ? null : kept.getIfPresent(userId);
        if (counts == null || !counts.version().equals(version) || !now.isBefore(counts.freshUntil())
                || counts.agesAt() != null && now.isAfter(counts.agesAt())) {
            return null;
        }
        return counts.json();
    }

    /**
     * Keeps counts read elsewhere (as {@link UnreadView} JSON, exactly as {@link #unread} renders
     * them) under the version {@link #versions} gave before they were read; a null version keeps nothing.
     */
    public void keep(long userId, @Nullable String version, byte[] counts, HomeFeed.UnreadByFolder read) {
        if (version != null && isOn()) {
            put(userId, version, counts, read);
        }
    }

    private void put(long userId, String version, byte[] counts, HomeFeed.UnreadByFolder read) {
        Instant freshUntil = KeptLifetime.freshUntil(clock.instant(), userId, KEPT_FOR, kept.getIfPresent(userId) != null);
        kept.put(userId, new Kept(version, counts, read.agesAt(), freshUntil));
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

    /**
     * The keys of the person's version, for the rate limit to read along with the request's count
     * (empty when counts are not kept or the node cannot make the version from them alone).
     */
    List<String> versionKeys(long userId) {
        return isOn() ? home.unreadVersionKeys(userId) : List.of();
    }

    /** A version of a person's counts (null: none to keep them under), and whether it was read along with the rate limit's count. */
    private record Version(@Nullable String value, boolean along) {
    }

    private Version version(long userId, ReadAlong.@Nullable Read along) {
        try {
            String version = along != null ? home.unreadVersion(userId, along.keys(), along.values()) : null;
            return version != null ? new Version(version, true) : new Version(home.unreadVersion(userId), false);
        } catch (DataAccessException trouble) {
            RedisFailures.rethrowUnlessRedis(trouble);
            log.debug("Unread counts not kept: {}", trouble.getMessage());
            return new Version(null, false);
        }
    }
}
