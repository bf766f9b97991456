package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.storage.Transactions;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongFunction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Version stamps in Redis for what a home-timeline page shows, so that a reader may keep a page
 * and know with one round trip whether it still holds: a person's version moves with every
 * change to their inbox (delivery, retraction, read marks), an item's with every change to it
 * (edit, tombstone, like, comment). Stamps move only after the change commits, so a reader that
 * saw the old stamp re-reads the database at its next request; an epoch key, re-drawn when Redis
 * lost it, or within a second of Redis taking writes again after a stamp move failed, voids every
 * stamp handed out before.
 */
@Component
class PageStamps implements DisposableBean {

    private static final String EPOCH = "tributary:tl:epoch";
    /** Moves whenever a source is pulled for the first time (every follower's pulled sources change). */
    private static final String PULLED = "tributary:tl:pulled";
    private static final byte[] EPOCH_KEY = bytes(EPOCH);
    private static final byte[] PULLED_KEY = bytes(PULLED);
    /** What {@link #itemKey} and {@link #storyKey} put before the id. */
    private static final byte[] ITEM_PREFIX = bytes("tributary:tl:item:");
    private static final byte[] STORY_PREFIX = bytes("tributary:tl:story:");
    /**
     * People whose pulled sources this node keeps. Well inside the stamps' lifetime, so a head that
     * expired and was set again cannot meet a list older than it.
     */
    private static final Duration KNOWN_FOR = Duration.ofHours(1);
    private static final int KNOWN_PEOPLE = 100_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private static final Logger log = LoggerFactory.getLogger(PageStamps.class);

    /**
     * ARGV[1] the expiry in seconds, ARGV[2] the new value of every key: a fresh random value per
     * call differs from each key's last one, which is all a stamp needs.
     */
    private static final DefaultRedisScript<Long> BUMP_SCRIPT = new DefaultRedisScript<>("""
            for i = 1, #KEYS do
              redis.call('SET', KEYS[i], ARGV[2], 'EX', ARGV[1])
            end
            return #KEYS
            """, Long.class);
    /**
     * As {@link #BUMP_SCRIPT} for people's stamps, moving only those that exist: a reader draws
     * its person's stamp before it keeps a page ({@link #drawn}), so a person nobody reads
     * (most of a large audience) costs a failed lookup instead of a new key. One {@code MGET} finds
     * the keys that exist and only those are set: a {@code SET … XX} per key cost a command each,
     * a thousand a fan-out batch, nearly all of them failing. The script is atomic, so a key found
     * is a key moved, exactly as {@code XX} would have it.
     */
    private static final DefaultRedisScript<Long> BUMP_EXISTING_SCRIPT = new DefaultRedisScript<>("""
            if #KEYS == 0 then
              return 0
            end
            local found = redis.call('MGET', unpack(KEYS))
            local moved = 0
            for i = 1, #KEYS do
              if found[i] then
                redis.call('SET', KEYS[i], ARGV[2], 'EX', ARGV[1])
                moved = moved + 1
              end
            end
            return moved
            """, Long.class);
    private static final int KEYS_PER_CALL = 1000;
    /** How soon after Redis takes writes again a failed stamp move voids what it should have. */
    private static final Duration SETTLE_EVERY = Duration.ofSeconds(1);

    private final StringRedisTemplate redis;
    private final Transactions tx;
    private final boolean cluster;
    private final Cache<Long, KeptFolders> folderLists = Caffeine.newBuilder()
            .maximumSize(KNOWN_PEOPLE).expireAfterWrite(KNOWN_FOR).build();
    private final Cache<Long, KnownSources> pulledLists = Caffeine.newBuilder()
            .maximumSize(KNOWN_PEOPLE).expireAfterWrite(KNOWN_FOR).build();
    /** Stamp moves that failed after their commit since {@link #settle} last re-drew the epoch. */
    private final AtomicLong failedMoves = new AtomicLong();
    private final ScheduledExecutorService settler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofVirtual().name("page-stamps-settle").factory());
    private final DeliveredStampMoves delivered = new DeliveredStampMoves(this::movePeople);

    PageStamps(StringRedisTemplate redis, Transactions tx) {
        this.redis = redis;
        this.tx = tx;
        this.cluster = redis.getConnectionFactory() instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
        long every = SETTLE_EVERY.toMillis();
        settler.scheduleWithFixedDelay(this::settle, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * A stamp move failed after its change committed, so some node may keep a page that no longer
     * holds: the epoch is owed a new value, which voids every stamp handed out on every node.
     */
    private void owe(String what, DataAccessException e) {
        failedMoves.incrementAndGet();
        log.warn("Could not move {}; the timeline epoch is re-drawn once Redis takes it: {}", what, e.getMessage());
    }

    /** Re-draws the epoch if a stamp move failed since the last time (while Redis refuses it, tries again next time). */
    void settle() {
        long owed = failedMoves.get();
        if (owed == 0) {
            return;
        }
        try {
            redis.opsForValue().set(EPOCH, Long.toString(RANDOM.nextLong() & Long.MAX_VALUE));
            // A move that failed meanwhile is settled by the next call.
            failedMoves.compareAndSet(owed, 0);
            log.info("Re-drew the timeline epoch after failed stamp moves: every node reads its kept pages again");
        } catch (RuntimeException stillRefused) {
            // Owed still: the next call tries again.
        }
    }

    /** Whether a failed stamp move still waits for the epoch to be re-drawn. */
    boolean owesEpoch() {
        return failedMoves.get() > 0;
    }

    @Override
    public void destroy() {
        delivered.stop();
        settler.shutdownNow();
    }

    /**
     * The epoch, the person's stamp and the items' stamps, in one round trip while this node
     * knows the person's pulled sources. The stamps of the pulled sources the person follows
     * ({@code pulledSources} reads them from MySQL) are folded into theirs (a pulled publish moves
     * only its source's stamp, not each follower's); where {@code stories.get(i)} is present and
     * not null, it is the story whose sharers item {@code i} shows ({@code shared_by}), and that
     * story's stamp joins the item's, so a new or deleted share voids every kept rendering of its
     * link's items.
     */
    TimelineStamps read(long userId, List<Long> itemIds, LongFunction<List<Long>> pulledSources, List<@Nullable Long> stories) {
        KnownSources known = pulledLists.getIfPresent(userId);
        if (known != null) {
            Reading reading = read(userId, itemIds, known.sourceIds(), stories);
            if (known.holds(reading)) {
                return reading.stamps(known.version());
            }
        }
        Reading reading = read(userId, itemIds, load(userId, pulledSources), stories);
        KnownSources loaded = pulledLists.getIfPresent(userId);
        return reading.stamps(loaded != null && loaded.holds(reading) ? loaded.version() : null);
    }

    /**
     * The person's pulled sources ({@code pulledSources} reads them from MySQL): one Redis round
     * trip while this node's list of them holds, as {@link #read} checks it; with {@code stamped},
     * the same round trip also reads the sources' stamps ({@link #sources}' form).
     */
    Inbox.KnownPulled pulledSources(long userId, LongFunction<List<Long>> pulledSources, boolean stamped) {
        KnownSources known = pulledLists.getIfPresent(userId);
        if (known != null) {
            List<String> keys = new ArrayList<>(List.of(EPOCH, followsKey(userId), PULLED));
            if (stamped) {
                known.sourceIds().forEach(id -> keys.add(sourceKey(id)));
            }
            List<String> heads = redis.opsForValue().multiGet(keys);
            if (known.holds(heads.get(0), heads.get(1), heads.get(2))) {
                Map<Long, String> stamps = new HashMap<>();
                for (int i = 3; i < heads.size(); i++) {
                    stamps.put(known.sourceIds().get(i - 3), heads.get(0) + "/" + heads.get(i));
                }
                return new Inbox.KnownPulled(known.sourceIds(), stamps, known.version());
            }
        }
        return new Inbox.KnownPulled(load(userId, pulledSources), Map.of(), null);
    }

    /**
     * The person's folders and the sources filed in each, as {@code load} reads them from MySQL,
     * kept on this node under the stamp of the person's folders ({@code stamp}, as just read with
     * {@link #foldersKey}; drawn if there is none). Every change to them moves that stamp after
     * its commit ({@link #foldersChanged}), and the stamp is read before MySQL, so a kept map is
     * never used past a change.
     */
    Map<Long, Set<Long>> folders(long userId, @Nullable String stamp, LongFunction<Map<Long, Set<Long>>> load) {
        KeptFolders kept = folderLists.getIfPresent(userId);
        if (kept != null && kept.stamp().equals(stamp)) {
            return kept.sourcesByFolder();
        }
        String drawn = drawn(foldersKey(userId), stamp);
        Map<Long, Set<Long>> read = load.apply(userId);
        Map<Long, Set<Long>> copy = new LinkedHashMap<>();
        read.forEach((folder, sources) -> copy.put(folder, Collections.unmodifiableSet(new LinkedHashSet<>(sources))));
        Map<Long, Set<Long>> folders = Collections.unmodifiableMap(copy);
        if (drawn != null) {
            folderLists.put(userId, new KeptFolders(drawn, folders));
        }
        return folders;
    }

    /** The person's folders changed (created, renamed, deleted, sources filed or unfiled): kept maps are void once the caller commits. */
    void foldersChanged(long userId) {
        List<String> keys = List.of(foldersKey(userId));
        tx.afterCommit(() -> bump(BUMP_EXISTING_SCRIPT, keys, 1));
    }

    /** A person's folders with their sources, as read under a stamp of their folders. */
    private record KeptFolders(String stamp, Map<Long, Set<Long>> sourcesByFolder) {
    }

    /**
     * What a person's unread counts are kept under on a node: the epoch, their stamp, the stamp of
     * their folders, the heads their list of pulled sources was kept under and the stamps of those
     * sources, in one round trip. Every change to their counts moves their stamp after its commit
     * (and after a rollback, {@link #peopleRolledBack}), every change to their folders the folders'
     * stamp, a pulled follow, unfollow or filter change the follows' stamp, a read mark on a pulled
     * item the person's stamp, and a pulled publish or tombstone its source's stamp; the version is
     * read before the counts, so counts kept under it are never used past a change. (Time alone
     * also moves pulled counts, as items leave the horizon: see {@code PulledFeed.Counts#agesAt}.)
     * Null when the node keeps no current list of their pulled sources.
     */
    @Nullable String countsVersion(long userId) {
        return countsVersions(List.of(userId), true).get(userId);
    }

    /**
     * {@link #countsVersion} of many people in one round trip, by person; those it cannot vouch
     * for are absent. With {@code draw}, a person's or folders' stamp nobody drew yet is drawn
     * (two more round trips); without, that person is left out.
     */
    Map<Long, String> countsVersions(Collection<Long> people, boolean draw) {
        Map<Long, KnownSources> lists = new LinkedHashMap<>();
        List<String> keys = new ArrayList<>(List.of(EPOCH, PULLED));
        for (long person : people) {
            KnownSources known = pulledLists.getIfPresent(person);
            if (known != null) {
                lists.put(person, known);
                keys.addAll(personVersionKeys(person, known));
            }
        }
        if (lists.isEmpty()) {
            return Map.of();
        }
        List<String> values = redis.opsForValue().multiGet(keys);
        Map<Long, String> versions = new HashMap<>();
        int at = 2;
        for (Map.Entry<Long, KnownSources> entry : lists.entrySet()) {
            List<String> heads = values.subList(at, at + 3 + entry.getValue().sourceIds().size());
            at += heads.size();
            String version = countsVersion(entry.getKey(), entry.getValue(), values.get(0), values.get(1), heads, draw);
            if (version != null) {
                versions.put(entry.getKey(), version);
            }
        }
        return versions;
    }

    /**
     * The keys whose values give {@link #countsVersion} (to read along with something else, in
     * the same round trip): empty when the node keeps no list of the person's pulled sources.
     */
    List<String> countsVersionKeys(long userId) {
        KnownSources known = pulledLists.getIfPresent(userId);
        return known == null ? List.of() : countsVersionKeys(userId, known);
    }

    private static List<String> countsVersionKeys(long userId, KnownSources known) {
        List<String> keys = new ArrayList<>(List.of(EPOCH, PULLED));
        keys.addAll(personVersionKeys(userId, known));
        return keys;
    }

    /**
     * {@link #countsVersion} from the values of {@link #countsVersionKeys} read elsewhere, in
     * order; null when the node's list of the person's pulled sources is no longer the one
     * those keys were made from (the caller reads the version itself) or the values do not vouch.
     */
    @Nullable String countsVersion(long userId, List<String> keys, List<@Nullable String> values) {
        KnownSources known = pulledLists.getIfPresent(userId);
        // The keys of the very list the version is made from, so a list replaced meanwhile cannot pass.
        if (known == null || keys.size() != values.size() || !keys.equals(countsVersionKeys(userId, known))) {
            return null;
        }
        return countsVersion(userId, known, values.get(0), values.get(1), values.subList(2, values.size()), true);
    }

    /** The person's follows, stamp and folders keys, then each of their pulled sources' stamp key. */
    private static List<String> personVersionKeys(long person, KnownSources known) {
        List<String> keys = new ArrayList<>(3 + known.sourceIds().size());
        keys.addAll(List.of(followsKey(person), personKey(person), foldersKey(person)));
        known.sourceIds().forEach(id -> keys.add(sourceKey(id)));
        return keys;
    }

    /** One person's version from the epoch, the pulled generation and {@link #personVersionKeys}' values. */
    private @Nullable String countsVersion(long person, KnownSources known, @Nullable String epoch, @Nullable String generation,
            List<@Nullable String> heads, boolean draw) {
        if (!known.holds(epoch, heads.get(0), generation)) {
            return null;
        }
        String stamp = draw ? drawn(personKey(person), heads.get(1)) : heads.get(1);
        String folders = draw ? drawn(foldersKey(person), heads.get(2)) : heads.get(2);
        if (stamp == null || folders == null) {
            return null;
        }
        StringBuilder version = new StringBuilder(known.version()).append('/').append(stamp).append('/').append(folders);
        for (int i = 0; i < known.sourceIds().size(); i++) {
            version.append('/').append(known.sourceIds().get(i)).append('=').append(heads.get(3 + i));
        }
        return version.toString();
    }

    /**
     * A change that moved these people's counters rolled back: moves their stamps now, so counts a
     * node kept while the change was in flight are void too.
     */
    void peopleRolledBack(Collection<Long> userIds) {
        movePeople(List.copyOf(userIds));
    }

    /** Tagged like the person's counters: the stamp of the person's folders. */
    static String foldersKey(long userId) {
        return "tributary:tl:" + PersonSlots.tag(userId) + ":d:" + userId;
    }

    /** The key of the epoch, which a failed stamp move re-draws: everything kept under the old one is void. */
    static String epochKey() {
        return EPOCH;
    }

    /**
     * The keys whose values check this node's kept list of the person's pulled sources (to read
     * along with something else); empty when the node keeps none for them. The epoch's comes first.
     */
    List<String> keptListKeys(long userId) {
        return pulledLists.getIfPresent(userId) == null ? List.of() : List.of(EPOCH, followsKey(userId), PULLED);
    }

    /**
     * As {@link #pulledSources(long, LongFunction, boolean)} unstamped, with {@link #keptListKeys}'
     * values already read (none when the node kept no list: it is loaded).
     */
    Inbox.KnownPulled pulledSources(long userId, LongFunction<List<Long>> pulledSources, List<@Nullable String> heads) {
        KnownSources known = pulledLists.getIfPresent(userId);
        if (known != null && heads.size() == 3 && known.holds(heads.get(0), heads.get(1), heads.get(2))) {
            return new Inbox.KnownPulled(known.sourceIds(), Map.of(), known.version());
        }
        return new Inbox.KnownPulled(load(userId, pulledSources), Map.of(), null);
    }

    /**
     * Reads and keeps the person's pulled sources. Heads first, then MySQL: a follow committed
     * after this read moves a head after it, so the list kept here is never trusted past a change
     * it missed.
     */
    private List<Long> load(long userId, LongFunction<List<Long>> pulledSources) {
        List<String> heads = redis.opsForValue().multiGet(List.of(EPOCH, followsKey(userId), PULLED));
        String epoch = heads.get(0) != null ? heads.get(0) : newEpoch();
        String follows = drawn(followsKey(userId), heads.get(1));
        List<Long> sourceIds = List.copyOf(pulledSources.apply(userId));
        pulledLists.put(userId, new KnownSources(epoch, follows, heads.get(2), sourceIds));
        return sourceIds;
    }

    /**
     * A person's pulled sources as read under these heads (the epoch, the stamp of the person's
     * pulled follows, the pulled generation): still theirs while the heads are unchanged.
     */
    private record KnownSources(@Nullable String epoch, @Nullable String follows, @Nullable String generation, List<Long> sourceIds) {
        boolean holds(Reading reading) {
            return holds(reading.epoch(), reading.follows(), reading.generation());
        }

        /** What a kept list of these sources was read under, as {@link Inbox.KnownPulled#version} hands it out. */
        String version() {
            return epoch + "/" + follows + "/" + generation;
        }

        boolean holds(@Nullable String epoch, @Nullable String follows, @Nullable String generation) {
            return this.epoch != null && this.epoch.equals(epoch) && Objects.equals(this.follows, follows)
                    && Objects.equals(this.generation, generation);
        }
    }

    /** The stamps, and the raw heads they were folded from. */
    private record Reading(TimelineStamps stamps, @Nullable String epoch, @Nullable String follows, @Nullable String generation) {
        /** The stamps, naming the version of the kept list of pulled sources they were read with. */
        TimelineStamps stamps(@Nullable String pulledList) {
            return new TimelineStamps(stamps.epoch(), stamps.person(), stamps.items(), stamps.own(), stamps.sources(), pulledList);
        }
    }

    private Reading read(long userId, List<Long> itemIds, List<Long> pulledSourceIds, List<@Nullable Long> stories) {
        // Keys written straight to bytes, values read as bytes: building ~55 key strings and then
        // serialising each again was most of what a kept home page allocated of its own.
        int storyCount = Math.min(stories.size(), itemIds.size());
        byte[][] keys = new byte[4 + pulledSourceIds.size() + itemIds.size() + storyCount][];
        int n = 0;
        keys[n++] = EPOCH_KEY;
        keys[n++] = bytes(personKey(userId));
        keys[n++] = PULLED_KEY;
        keys[n++] = bytes(followsKey(userId));
        for (long id : pulledSourceIds) {
            keys[n++] = bytes(sourceKey(id));
        }
        for (long id : itemIds) {
            keys[n++] = key(ITEM_PREFIX, id);
        }
        int[] storyAt = new int[storyCount];
        int storiesRead = 0;
        for (int i = 0; i < storyCount; i++) {
            Long story = stories.get(i);
            if (story != null) {
                storyAt[storiesRead++] = i;
                keys[n++] = key(STORY_PREFIX, story);
            }
        }
        List<@Nullable String> values = multiGet(n == keys.length ? keys : Arrays.copyOf(keys, n));
        String epoch = values.get(0) != null ? values.get(0) : newEpoch();
        int first = 4 + pulledSourceIds.size();
        String own = drawn(personKey(userId), values.get(1));
        String person = own;
        Map<Long, String> sources = Map.of();
        if (!pulledSourceIds.isEmpty()) {
            // A pulled follow's media filter and read position apply at read time: they move the follows' stamp only.
            own = own + "/f=" + values.get(3);
            StringBuilder folded = new StringBuilder(own);
            Map<Long, String> bySource = new HashMap<>();
            for (int i = 0; i < pulledSourceIds.size(); i++) {
                folded.append('/').append(pulledSourceIds.get(i)).append('=').append(values.get(4 + i));
                // As sources() gives them, the form the node's source heads are kept under.
                bySource.put(pulledSourceIds.get(i), epoch + "/" + values.get(4 + i));
            }
            person = folded.toString();
            sources = Collections.unmodifiableMap(bySource);
        }
        List<@Nullable String> items = new ArrayList<>(values.subList(first, first + itemIds.size()));
        for (int k = 0; k < storiesRead; k++) {
            String story = values.get(first + itemIds.size() + k);
            if (story != null) {
                int i = storyAt[k];
                items.set(i, items.get(i) + "/" + story);
            }
        }
        return new Reading(new TimelineStamps(epoch, person, items, own, sources, null), epoch, values.get(3), values.get(2));
    }

    /**
     * Some source was pulled for the first time, so every follower's list of pulled sources grew:
     * moves the generation every node checks its kept lists against, once the caller commits.
     */
    void pulledSourcesChanged() {
        tx.afterCommit(() -> {
            try {
                redis.opsForValue().set(PULLED, Long.toHexString(RANDOM.nextLong()));
            } catch (DataAccessException e) {
                owe("the pulled sources' generation", e);
            }
        });
    }

    /**
     * These pulled sources' stamps, each with the epoch folded in (so a Redis that lost its keys
     * voids every one handed out before): one round trip.
     */
    List<String> sources(List<Long> sourceIds) {
        List<String> keys = new ArrayList<>(sourceIds.size() + 1);
        keys.add(EPOCH);
        sourceIds.forEach(id -> keys.add(sourceKey(id)));
        List<String> values = redis.opsForValue().multiGet(keys);
        String epoch = values.get(0) != null ? values.get(0) : newEpoch();
        List<String> stamps = new ArrayList<>(sourceIds.size());
        for (int i = 1; i < values.size(); i++) {
            stamps.add(epoch + "/" + values.get(i));
        }
        return stamps;
    }

    /** Moves these pulled sources' stamps once the caller's transaction commits. */
    void sourcesChanged(Collection<Long> sourceIds) {
        if (!sourceIds.isEmpty()) {
            List<String> keys = sourceIds.stream().map(PageStamps::sourceKey).toList();
            tx.afterCommit(() -> bump(keys, cluster ? 1 : KEYS_PER_CALL));
        }
    }

    /**
     * The person's pulled follows changed (a follow, an unfollow, a pair pushed past their cap, a
     * media filter, a read position, a mark on a single pulled item, which is kept with the
     * follows): moves the stamp this node's list of their pulled sources is kept under, once the
     * caller commits. Deliveries do not move it, so the list outlives them.
     */
    void followsChanged(long userId) {
        String key = followsKey(userId);
        tx.afterCommit(() -> {
            try {
                redis.opsForValue().set(key, Long.toHexString(RANDOM.nextLong()), TimelineStamps.TTL);
            } catch (DataAccessException e) {
                owe("the pulled follows' stamp of " + userId, e);
            }
        });
    }

    /** Moves these people's stamps once the caller's transaction commits (at once outside one). */
    void peopleChanged(Collection<Long> userIds) {
        if (!userIds.isEmpty()) {
            List<Long> people = List.copyOf(userIds);
            tx.afterCommit(() -> movePeople(people));
        }
    }

    /**
     * As {@link #peopleChanged}, for a fan-out batch: once the caller commits, the stamps are moved
     * on this node's mover thread, not the caller's ({@link DeliveredStampMoves}).
     */
    void peopleDelivered(Collection<Long> userIds) {
        if (!userIds.isEmpty()) {
            List<Long> people = List.copyOf(userIds);
            tx.afterCommit(() -> delivered.add(people));
        }
    }

    /**
     * Waits until the stamp moves of every batch committed before this call are made (at most
     * {@code timeout}); false if they were not by then.
     */
    boolean deliveriesSettled(Duration timeout) {
        return delivered.flushed(timeout);
    }

    /**
     * Moves these people's existing stamps: on Redis Cluster one call per bucket of people (their
     * keys share its slot). A plain {@code MGET} finds the stamps that exist and the script moves
     * only those: most of a large audience has none, and the script's own {@code MGET} of a
     * thousand keys cost Redis ~0.7 ms against the command's 0.5–0.6 (2026-11-29). A stamp drawn
     * between the two calls is drawn after the change committed, so it needs no move; the script
     * checks again that each one it moves still exists.
     */
    private void movePeople(List<Long> people) {
        try {
            for (List<Long> users : PersonSlots.calls(people, cluster, KEYS_PER_CALL)) {
                List<String> names = users.stream().map(PageStamps::personKey).toList();
                List<@Nullable String> found = multiGet(names.stream().map(PageStamps::bytes).toArray(byte[][]::new));
                List<String> existing = new ArrayList<>();
                for (int i = 0; i < names.size(); i++) {
                    if (found.get(i) != null) {
                        existing.add(names.get(i));
                    }
                }
                if (!existing.isEmpty()) {
                    bump(BUMP_EXISTING_SCRIPT, existing, KEYS_PER_CALL);
                }
            }
        } catch (DataAccessException e) {
            owe(people.size() + " timeline stamps", e);
        }
    }

    /** Moves these items' stamps once the caller's transaction commits (at once outside one). */
    void itemsChanged(Collection<Long> itemIds) {
        if (!itemIds.isEmpty()) {
            List<String> keys = itemIds.stream().map(PageStamps::itemKey).toList();
            tx.afterCommit(() -> bump(keys, cluster ? 1 : KEYS_PER_CALL));
        }
    }

    /** Moves these stories' stamps (their shares changed) once the caller's transaction commits. */
    void storiesChanged(Collection<Long> stories) {
        if (!stories.isEmpty()) {
            List<String> keys = stories.stream().distinct().map(PageStamps::storyKey).toList();
            tx.afterCommit(() -> bump(keys, cluster ? 1 : KEYS_PER_CALL));
        }
    }

    /**
     * A fresh random value with its expiry per key, one {@code SET … EX} each (a stamp need only
     * differ from every earlier one, not count), in one script call per thousand keys on the
     * shared connection (a pipeline would open a connection of its own each time); {@code size}
     * keys a call, which on Redis Cluster must all lie in one slot. The change has committed: a
     * Redis failure here must not fail it; the epoch is re-drawn instead ({@link #settle}).
     */
    private void bump(List<String> keys, int size) {
        bump(BUMP_SCRIPT, keys, size);
    }

    private void bump(DefaultRedisScript<Long> script, List<String> keys, int size) {
        String ttl = Long.toString(TimelineStamps.TTL.toSeconds());
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try {
            for (int from = 0; from < keys.size(); from += size) {
                List<String> chunk = keys.subList(from, Math.min(keys.size(), from + size));
                redis.execute(script, chunk, ttl, Long.toHexString(random.nextLong()));
            }
        } catch (DataAccessException e) {
            owe(keys.size() + " timeline stamps", e);
        }
    }

    /**
     * A stamp as read, or drawn now if there is none (keeping a concurrent winner's): deliveries
     * move only existing person stamps, and what is kept under a stamp drawn before its read of
     * MySQL is voided by every later change. The value set is the one returned, so the common case
     * is one round trip; a later move of the key voids what is kept under it, as for any stamp.
     * Null only if Redis lost the key again at once.
     */
    private @Nullable String drawn(String key, @Nullable String read) {
        if (read != null) {
            return read;
        }
        String fresh = Long.toHexString(RANDOM.nextLong());
        if (Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(key, fresh, TimelineStamps.TTL))) {
            return fresh;
        }
        return redis.opsForValue().get(key);
    }

    /**
     * The person's stamp as read ({@code read}), or drawn now if there is none: for counts kept
     * under it, drawn before they are counted from MySQL. Null only if Redis lost the key at once.
     */
    @Nullable String personStamp(long userId, @Nullable String read) {
        return drawn(personKey(userId), read);
    }

    /** The epoch as read ({@code read}), or drawn now if Redis has none. */
    @Nullable String epoch(@Nullable String read) {
        return read != null ? read : newEpoch();
    }

    /** Draws the epoch if Redis has none (a fresh or flushed Redis), keeping a concurrent winner's. */
    private @Nullable String newEpoch() {
        redis.opsForValue().setIfAbsent(EPOCH, Long.toString(RANDOM.nextLong() & Long.MAX_VALUE));
        return redis.opsForValue().get(EPOCH);
    }

    /** The values of these keys, in their order (null for a key holding none), read in one round trip. */
    private List<@Nullable String> multiGet(byte[][] keys) {
        List<byte[]> raw = redis.execute((RedisCallback<List<byte[]>>) connection -> connection.stringCommands().mGet(keys));
        if (raw == null || raw.size() != keys.length) {
            throw new IllegalStateException("Redis answered an MGET of " + keys.length + " keys with "
                    + (raw == null ? "nothing" : raw.size() + " values"));
        }
        List<@Nullable String> values = new ArrayList<>(raw.size());
        for (byte[] value : raw) {
            values.add(value == null ? null : new String(value, StandardCharsets.UTF_8));
        }
        return values;
    }

    private static byte[] bytes(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code prefix} followed by {@code id} in decimal, as the string keys spell it, in one array. */
    static byte[] key(byte[] prefix, long id) {
        if (id < 0) {
            return bytes(new String(prefix, StandardCharsets.UTF_8) + id);
        }
        int digits = 1;
        for (long rest = id / 10; rest > 0; rest /= 10) {
            digits++;
        }
        byte[] key = Arrays.copyOf(prefix, prefix.length + digits);
        long rest = id;
        for (int at = key.length - 1; at >= prefix.length; at--) {
            key[at] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return key;
    }

    static String personKey(long userId) {
        return "tributary:tl:" + PersonSlots.tag(userId) + ":" + userId;
    }

    /** Tagged like the person's counters: the stamp of the person's pulled follows. */
    private static String followsKey(long userId) {
        return "tributary:tl:" + PersonSlots.tag(userId) + ":f:" + userId;
    }

    static String storyKey(long story) {
        return "tributary:tl:story:" + story;
    }

    private static String sourceKey(long sourceId) {
        return "tributary:tl:source:" + sourceId;
    }

    static String itemKey(long itemId) {
        return "tributary:tl:item:" + itemId;
    }
}
