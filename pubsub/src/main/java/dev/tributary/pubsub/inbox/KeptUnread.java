package dev.tributary.pubsub.inbox;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.tributary.pubsub.Feature;
import dev.tributary.pubsub.KeptLifetime;
import dev.tributary.pubsub.Switches;
import dev.tributary.pubsub.Unread;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * People's counts as their counter hash gives them, kept per node under the epoch and the
 * person's inbox stamp read before the hash. A live stream's counts are read again after every
 * item a pulled source publishes, which moves neither: without this, each of those reads fetched
 * and parsed the person's whole hash (a field per source and media type) to find it unchanged.
 *
 * <p>Exact as the node's other kept counts are: every change to a person's counts moves their
 * stamp after it commits (a rollback too), a stamp move that failed re-draws the epoch once Redis
 * takes writes again, and stamps are random, so an equal pair read before a count means no change
 * committed since the kept hash was read, but for one whose stamp move is still in flight.
 */
@Component
class KeptUnread {

    /** A person with 50 sources weighs ~3 KB: the bound keeps ~10,000 people's, least recently used first out. */
    private static final long MAX_BYTES = 32L << 20;
    /** The bound left for a node that died between a commit and its stamp move, as for kept pages. */
    private static final Duration KEPT_FOR = Duration.ofMinutes(10);

    /** Counts kept under an epoch and a stamp, for {@code lifetime} from when they were kept. */
    private record Kept(String epoch, String stamp, Unread unread, Duration lifetime) {
    }

    private final Switches switches;
    /**
     * Each person's counts live their own share of the bound ({@link KeptLifetime}): a live
     * stream's counts are kept once and renewed only when they lapse, so with one lifetime for all,
     * the counts of every stream opened in a node's first minutes lapsed, and were read again
     * from Redis, in the same render every ten minutes for good.
     */
    private final Cache<Long, Kept> kept = Caffeine.newBuilder().maximumWeight(MAX_BYTES)
            .weigher((Long person, Kept counts) -> 160 + 48 * (counts.unread().bySource().size() + counts.unread().byMedia().size()))
            .expireAfter(Expiry.writing((Long person, Kept counts) -> counts.lifetime())).build();
    private final Counter hits;
    private final Counter misses;

    KeptUnread(Switches switches, ObjectProvider<MeterRegistry> registries) {
        this.switches = switches;
        MeterRegistry registry = registries.getIfAvailable(SimpleMeterRegistry::new);
        this.hits = read(registry, "kept");
        this.misses = read(registry, "read");
    }

    private static Counter read(MeterRegistry registry, String outcome) {
        return Counter.builder("tributary.unread.hash.reads").tag("outcome", outcome)
                .description("counter hashes this node had kept under the person's stamp or read from Redis").register(registry);
    }

    /** Whether the node keeps counts of this person (their hash need not be read before their stamp is). */
    boolean holds(long person) {
        if (!switches.isOn(Feature.PAGE_CACHE)) {
            kept.invalidateAll();
            return false;
        }
        return kept.getIfPresent(person) != null;
    }

    /**
     * Whether counts may be kept under people's stamps at all (the {@code page-cache} switch): also
     * what lets a counter hash answer alone at a version ({@code UnreadCounters}' {@code _s}).
     */
    boolean keeping() {
        return switches.isOn(Feature.PAGE_CACHE);
    }

    /** The person's kept counts if kept under this epoch and stamp (as just read, before any count); else null. */
    @Nullable Unread at(long person, @Nullable String epoch, @Nullable String stamp) {
        Kept counts = kept.getIfPresent(person);
        if (counts != null && counts.epoch().equals(epoch) && counts.stamp().equals(stamp)) {
            hits.increment();
            return counts.unread();
        }
        return null;
    }

    /** How long the person's kept counts have left; null: none kept. */
    @Nullable Duration remaining(long person) {
        return kept.policy().expireVariably().flatMap(policy -> policy.getExpiresAfter(person)).orElse(null);
    }

    /** Keeps counts read after this epoch and stamp were; nothing when either is unknown or keeping is switched off. */
    void keep(long person, @Nullable String epoch, @Nullable String stamp, Unread unread) {
        misses.increment();
        if (epoch != null && stamp != null && switches.isOn(Feature.PAGE_CACHE)) {
            Duration lifetime = kept.getIfPresent(person) != null
                    ? KeptLifetime.of(person, KEPT_FOR) : KeptLifetime.first(person, KEPT_FOR);
            kept.put(person, new Kept(epoch, stamp, unread, lifetime));
        }
    }
}
