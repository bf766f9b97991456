package dev.tributary.api.timeline;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.tributary.api.item.ItemJson;
import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.item.SourceRef;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.KeptLifetime;
import dev.tributary.pubsub.LinkShares;
import dev.tributary.pubsub.Feature;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.RedisFailures;
import dev.tributary.pubsub.Switches;
import dev.tributary.pubsub.Stars;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.pubsub.Stored;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The newest page of a person's home timeline (no filter, no cursor: what clients poll), kept
 * per node and checked against {@link HomeFeed#stamps} with one Redis round trip instead of
 * four MySQL queries. A page is the person's entries (ids, read and starred flags, void when their
 * person stamp moves: their inbox changed, or they starred or unstarred) over items rendered once
 * per node (void when the item's stamp moves: an edit, a tombstone, a like, a comment), so the
 * answer is the one MySQL would give. A stamp move that fails after its commit re-draws the epoch
 * once Redis takes it, which voids everything kept; entries are dropped after ten minutes anyway
 * (the bound left for a node that died between a commit and its stamp moves), rendered items after
 * a minute (the staleness source names already have). Without Redis, it reads MySQL.
 * <p>
 * A pulled source's publish or tombstone moves only that source's stamp: a kept page whose own
 * stamps ({@link TimelineStamps#own}) are unchanged is patched from the node's heads of those
 * sources ({@link HomeFeed#newestPulled}) instead of read again, since every follower of a popular
 * source would otherwise read MySQL after each of its items. A patched page is kept no longer than
 * the fresh read it grew from.
 */
@Component
@EnableConfigurationProperties(PageCacheSettings.class)
class NewestPages {

    private static final Logger log = LoggerFactory.getLogger(NewestPages.class);
    /**
     * How long a person's entries are kept: a client polling every minute or two must not pay a
     * fresh read each time (that read was 66 % of the home page's samples under load). Each
     * person's a little less, and a page first kept on this node up to three quarters less ({@link
     * KeptLifetime}), counted from the read a patch leaves in place.
     */
    private static final Duration ENTRIES_FOR = Duration.ofMinutes(10);
    /**
     * How long an item's rendering is kept at most: it names the item's source, whose name is kept
     * as long. Each rendering half to all of it ({@link KeptLifetime#drawn}): items on everyone's
     * page, rendered together, were otherwise rendered again together once a minute, a burst that
     * took most of the node's samples for a second.
     */
    private static final Duration RENDERED_FOR = Duration.ofMinutes(1);
    /** Items of the node's heads whose stamps a kept page's read takes along (a poll's worth of new items). */
    private static final int MAX_AHEAD = 10;

    /** A rendered page: the JSON array, its weak validator, and its ids (for the Link header). */
    record Page(PageJson json, String etag, List<Long> ids) {
    }

    private record Key(long userId, int limit) {
    }

    /**
     * A person's newest entries, their read and starred flags, the JSON of the {@code also_in} of
     * those that have one (null elsewhere: items are rendered with none), the story whose sharers
     * each shows ({@code shared_by}, rendered with the item: its stamp is part of the item's), and
     * the stamps they were read under.
     */
    private record Entries(@Nullable String epoch, @Nullable String stamp, long[] ids, boolean[] read, boolean[] starred,
            byte[][] alsoIn, List<@Nullable Long> stories, @Nullable String own, Map<Long, String> sources,
            Instant freshUntil) {
    }

    /**
     * One item's JSON as unread and as read (both not starred: a starred entry swaps the last
     * field's value when the page is joined), and the stamps it was rendered under.
     */
    private record Rendered(String epoch, @Nullable String stamp, byte[] unread, byte[] read, long hash, @Nullable Long story) {
    }

    private final HomeFeed home;
    private final Stars stars;
    private final Items items;
    private final ItemViews views;
    private final JsonMapper json;
    private final boolean enabled;
    private final Switches switches;
    private final Cache<Key, Entries> entries;
    private final Cache<Long, Rendered> rendered;
    private final Clock clock;
    private final Counter kept;
    private final Counter patched;
    private final Counter read;

    NewestPages(HomeFeed home, Stars stars, Items items, ItemViews views, JsonMapper json, PageCacheSettings settings,
            Switches switches, ObjectProvider<MeterRegistry> registries, ObjectProvider<Clock> clock) {
        this.clock = clock.getIfAvailable(Clock::systemUTC);
        this.home = home;
        this.stars = stars;
        this.items = items;
        this.views = views;
        this.json = json;
        this.enabled = settings.enabled();
        this.switches = switches;
        this.entries = Caffeine.newBuilder().maximumSize(settings.people()).expireAfterWrite(ENTRIES_FOR).build();
        this.rendered = Caffeine.newBuilder().maximumWeight(settings.itemBytes().toBytes())
                .weigher((Long id, Rendered r) -> r.unread().length + r.read().length + 64)
                .expireAfter(Expiry.writing((Long id, Rendered r) -> KeptLifetime.drawn(RENDERED_FOR))).build();
        MeterRegistry registry = registries.getIfAvailable(SimpleMeterRegistry::new);
        Gauge.builder("tributary.api.page.cache.pages", entries, Cache::estimatedSize)
                .description("newest home pages kept in this node's page cache").register(registry);
        this.kept = reads(registry, "kept");
        this.patched = reads(registry, "patched");
        this.read = reads(registry, "read");
    }

    private static Counter reads(MeterRegistry registry, String outcome) {
        return Counter.builder("tributary.api.page.cache.reads").tag("outcome", outcome)
                .description("newest home pages served as kept, patched from the pulled sources' heads, or read from MySQL")
                .register(registry);
    }

    /** The newest page of a person's home timeline ({@link TimelineQuery#isNewest}). */
    Page newest(long userId, int limit) {
        if (!enabled) {
            return render(userId, limit);
        }
        if (!switches.isOn(Feature.PAGE_CACHE)) {
            // Switched off because memory is short: give it back, then read MySQL as if disabled.
            if (entries.estimatedSize() > 0 || rendered.estimatedSize() > 0) {
                entries.invalidateAll();
                rendered.invalidateAll();
            }
            return render(userId, limit);
        }
        try {
            Key key = new Key(userId, limit);
            Entries kept = entries.getIfPresent(key);
            Instant now = clock.instant();
            Page page = kept != null && now.isBefore(kept.freshUntil()) ? fromKept(key, kept) : null;
            if (page != null) {
                return page;
            }
            read.increment();
            return fresh(key, KeptLifetime.freshUntil(now, userId, ENTRIES_FOR, kept != null));
        } catch (DataAccessException trouble) {
            RedisFailures.rethrowUnlessRedis(trouble);
            log.warn("Page cache bypassed: {}", trouble.getMessage());
            return render(userId, limit);
        }
    }

    /**
     * The kept page if it still holds, else patched if only its pulled sources moved; null: read it
     * fresh. The stamps of what the node's heads hold above the page are read with the page's, so a
     * patch needs no second round trip.
     */
    private @Nullable Page fromKept(Key key, Entries kept) {
        Ahead ahead = ahead(key, kept);
        List<Long> ids = new ArrayList<>(kept.ids().length + ahead.ids().size());
        ids.addAll(ids(kept.ids()));
        ids.addAll(ahead.ids());
        List<@Nullable Long> stories = new ArrayList<>(kept.stories());
        stories.addAll(ahead.stories());
        TimelineStamps read = home.stamps(key.userId(), ids, stories);
        TimelineStamps stamps = ahead.ids().isEmpty() ? read : withItems(read, read.items().subList(0, kept.ids().length));
        if (Objects.equals(stamps.epoch(), kept.epoch()) && Objects.equals(stamps.person(), kept.stamp())) {
            return counted(assemble(kept, stamps, null), this.kept);
        }
        return onlySourcesMoved(kept, stamps) ? counted(patch(key, kept, stamps, new ReadAlong(ahead, read)), patched) : null;
    }

    /**
     * Items the node's heads of the page's pulled sources hold above its newest entry, with the
     * story each shows where a rendering of this epoch tells it (those without are left out: a
     * patch that adds one reads its stamps apart).
     */
    private Ahead ahead(Key key, Entries kept) {
        if (kept.sources().isEmpty() || kept.epoch() == null) {
            return Ahead.NONE;
        }
        long top = kept.ids().length > 0 ? kept.ids()[0] : Long.MIN_VALUE;
        List<Long> ids = new ArrayList<>();
        List<@Nullable Long> stories = new ArrayList<>();
        for (long id : home.pulledAhead(kept.sources().keySet(), top, Math.min(key.limit(), MAX_AHEAD))) {
            Rendered part = rendered.getIfPresent(id);
            if (part != null && part.epoch().equals(kept.epoch())) {
                ids.add(id);
                stories.add(part.story());
            }
        }
        return ids.isEmpty() ? Ahead.NONE : new Ahead(ids, stories);
    }

    /** Ids a kept page will likely gain, and the story each shows, in the same order. */
    private record Ahead(List<Long> ids, List<@Nullable Long> stories) {
        static final Ahead NONE = new Ahead(List.of(), List.of());
    }

    /** The stamps one read gave: the kept page's entries', then those of {@code ahead}, in that order. */
    private record ReadAlong(Ahead ahead, TimelineStamps read) {
    }

    private static TimelineStamps withItems(TimelineStamps stamps, List<@Nullable String> items) {
        return new TimelineStamps(stamps.epoch(), stamps.person(), items, stamps.own(), stamps.sources(), stamps.pulledList());
    }

    private static @Nullable Page counted(@Nullable Page page, Counter outcome) {
        if (page != null) {
            outcome.increment();
        }
        return page;
    }

    /**
     * Reads the entries from MySQL under stamps read first, so a change racing the read voids
     * them; the items that read loaded are rendered from it, not loaded again.
     */
    private Page fresh(Key key, Instant freshUntil) {
        TimelineStamps before = home.stamps(key.userId(), List.of());
        List<TimelineEntry> page = home.page(key.userId(), TimelineQuery.newest(key.limit()));
        long[] ids = page.stream().mapToLong(TimelineEntry::id).toArray();
        boolean[] read = new boolean[ids.length];
        for (int i = 0; i < ids.length; i++) {
            read[i] = page.get(i).read();
        }
        Set<Long> starredIds = stars.starredAmong(key.userId(), ids(ids));
        boolean[] starred = new boolean[ids.length];
        for (int i = 0; i < ids.length; i++) {
            starred[i] = starredIds.contains(ids[i]);
        }
        byte[][] alsoIn = new byte[ids.length][];
        Map<Long, List<SourceRef>> alsoInOf = views.alsoInOf(key.userId(), ids(ids));
        for (int i = 0; i < ids.length; i++) {
            List<SourceRef> refs = alsoInOf.get(ids[i]);
            alsoIn[i] = refs == null ? null : json.writeValueAsBytes(refs);
        }
        List<@Nullable Long> stories = page.stream().map(entry -> LinkShares.storyShown(entry.item().body())).toList();
        Entries fresh = new Entries(before.epoch(), before.person(), ids, read, starred, alsoIn, stories, before.own(),
                before.sources(), freshUntil);
        Page assembled = assemble(fresh, home.stamps(key.userId(), ids(ids), stories), page);
        if (assembled == null) {
            // An item went between the two reads: answer from what was read, keep nothing.
            return page(views.ofTimeline(key.userId(), page));
        }
        if (before.epoch() != null) {
            entries.put(key, fresh);
        }
        return assembled;
    }

    /** Whether the kept page differs from these stamps only in its pulled sources' (and is from the same epoch). */
    private static boolean onlySourcesMoved(Entries kept, TimelineStamps stamps) {
        return kept.epoch() != null && kept.epoch().equals(stamps.epoch()) && kept.own() != null && kept.own().equals(stamps.own())
                && !kept.sources().isEmpty() && kept.sources().keySet().equals(stamps.sources().keySet());
    }

    /**
     * The kept page with the pulled sources' new entries joined in and cut to the limit, kept under
     * {@code stamps}; null when it cannot be patched (the heads cannot tell, a new item is gone, or
     * something moved since {@code stamps} were read): the caller reads it fresh. An entry the
     * sources lost (a tombstone) needs nothing here: its item's stamp moved too, so it is rendered
     * again, found gone, and the page is read fresh.
     */
    private @Nullable Page patch(Key key, Entries kept, TimelineStamps stamps, ReadAlong along) {
        List<HomeFeed.PulledEntry> pulled = home.newestPulled(key.userId(), key.limit(), stamps);
        if (pulled == null) {
            return null;
        }
        long[] keptIds = kept.ids();
        // A full page ends at its last entry: a pulled item older than that was older than the whole page before.
        long bottom = keptIds.length >= key.limit() ? keptIds[keptIds.length - 1] : Long.MIN_VALUE;
        Set<Long> onPage = new HashSet<>(ids(keptIds));
        List<HomeFeed.PulledEntry> added = pulled.stream().filter(e -> e.itemId() > bottom && !onPage.contains(e.itemId())).toList();
        Map<Long, TimelineEntry> loaded = new HashMap<>();
        Map<Long, @Nullable Long> addedStories = storiesOf(added, stamps.epoch(), loaded);
        if (addedStories == null) {
            return null;
        }
        Entries patched = merged(key.limit(), kept, added, addedStories, stamps);
        TimelineStamps now = readAlready(patched, kept, stamps, along);
        if (now == null) {
            now = home.stamps(key.userId(), ids(patched.ids()), patched.stories());
            if (!Objects.equals(now.epoch(), stamps.epoch()) || !Objects.equals(now.person(), stamps.person())) {
                return null;
            }
        }
        Page page = assemble(patched, now, List.copyOf(loaded.values()));
        if (page != null) {
            entries.put(key, patched);
        }
        return page;
    }

    /**
     * The patched page's stamps from the read that found its sources moved, when that read covered
     * every entry it gained under the story it shows now; else null (read them again).
     */
    private static @Nullable TimelineStamps readAlready(Entries patched, Entries kept, TimelineStamps stamps, ReadAlong along) {
        long[] keptIds = kept.ids();
        List<@Nullable String> items = new ArrayList<>(patched.ids().length);
        for (int i = 0; i < patched.ids().length; i++) {
            long id = patched.ids()[i];
            int at = indexOf(keptIds, id);
            if (at >= 0) {
                items.add(along.read().items().get(at));
                continue;
            }
            int ahead = along.ahead().ids().indexOf(id);
            if (ahead < 0 || !Objects.equals(along.ahead().stories().get(ahead), patched.stories().get(i))) {
                return null;
            }
            items.add(along.read().items().get(keptIds.length + ahead));
        }
        return withItems(stamps, items);
    }

    /** Where {@code id} is among a page's ids (newest first, so descending), or -1. */
    private static int indexOf(long[] newestFirst, long id) {
        int low = 0;
        int high = newestFirst.length - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            if (newestFirst[middle] == id) {
                return middle;
            }
            if (newestFirst[middle] > id) {
                low = middle + 1;
            } else {
                high = middle - 1;
            }
        }
        return -1;
    }

    /**
     * The story each new entry shows, from its kept rendering where there is one, else from the item
     * (loaded into {@code loaded} to be rendered from); null if an item is gone.
     */
    private @Nullable Map<Long, @Nullable Long> storiesOf(List<HomeFeed.PulledEntry> added, @Nullable String epoch,
            Map<Long, TimelineEntry> loaded) {
        Map<Long, @Nullable Long> stories = new HashMap<>();
        List<Long> unknown = new ArrayList<>();
        Map<Long, Boolean> read = new HashMap<>();
        for (HomeFeed.PulledEntry entry : added) {
            Rendered part = rendered.getIfPresent(entry.itemId());
            if (part != null && part.epoch().equals(epoch)) {
                stories.put(entry.itemId(), part.story());
            } else {
                unknown.add(entry.itemId());
                read.put(entry.itemId(), entry.read());
            }
        }
        if (!unknown.isEmpty()) {
            List<Stored<Item>> found = items.getAll(unknown);
            if (found.size() != unknown.size()) {
                return null;
            }
            for (Stored<Item> item : found) {
                stories.put(item.id(), LinkShares.storyShown(item.body()));
                loaded.put(item.id(), new TimelineEntry(item, read.get(item.id())));
            }
        }
        return stories;
    }

    /** The kept entries and the new pulled ones, newest first, cut to the limit, under {@code stamps}. */
    private Entries merged(int limit, Entries kept, List<HomeFeed.PulledEntry> added, Map<Long, @Nullable Long> addedStories,
            TimelineStamps stamps) {
        int size = Math.min(limit, kept.ids().length + added.size());
        long[] ids = new long[size];
        boolean[] read = new boolean[size];
        boolean[] starred = new boolean[size];
        byte[][] alsoIn = new byte[size][];
        List<@Nullable Long> stories = new ArrayList<>(size);
        for (int at = 0, k = 0, a = 0; at < size; at++) {
            if (a < added.size() && (k >= kept.ids().length || added.get(a).itemId() > kept.ids()[k])) {
                HomeFeed.PulledEntry entry = added.get(a++);
                ids[at] = entry.itemId();
                read[at] = entry.read();
                stories.add(addedStories.get(entry.itemId()));
            } else {
                ids[at] = kept.ids()[k];
                read[at] = kept.read()[k];
                starred[at] = kept.starred()[k];
                alsoIn[at] = kept.alsoIn()[k];
                stories.add(kept.stories().get(k++));
            }
        }
        return new Entries(kept.epoch(), stamps.person(), ids, read, starred, alsoIn, stories, stamps.own(), stamps.sources(),
                kept.freshUntil());
    }

    /**
     * The page from rendered items, rendering those missing or void (from {@code loaded} when the
     * caller has just read them, else from the item store); null if one is gone.
     */
    private @Nullable Page assemble(Entries kept, TimelineStamps stamps, @Nullable List<TimelineEntry> loaded) {
        Rendered[] parts = new Rendered[kept.ids().length];
        List<Long> missing = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            Rendered part = rendered.getIfPresent(kept.ids()[i]);
            if (part != null && part.epoch().equals(stamps.epoch()) && Objects.equals(part.stamp(), stamps.items().get(i))) {
                parts[i] = part;
            } else {
                missing.add(kept.ids()[i]);
            }
        }
        if (!missing.isEmpty() && !renderMissing(missing, kept, stamps, parts, loaded)) {
            return null;
        }
        return join(kept, parts);
    }

    private boolean renderMissing(List<Long> missing, Entries kept, TimelineStamps stamps, Rendered[] parts,
            @Nullable List<TimelineEntry> loaded) {
        List<Stored<Item>> found = loaded == null ? items.getAll(missing) : ofIds(loaded, missing);
        if (found.size() != missing.size()) {
            return false;
        }
        List<ItemView> fresh = views.ofPublic(found);
        for (int i = 0, f = 0; i < parts.length; i++) {
            if (parts[i] == null) {
                Long story = LinkShares.storyShown(found.get(f).body());
                ItemJson.Shared shared = ItemJson.of(fresh.get(f++), json);
                Rendered part = new Rendered(Objects.toString(stamps.epoch(), ""), stamps.items().get(i), shared.unread(),
                        shared.read(), Arrays.hashCode(shared.unread()), story);
                parts[i] = part;
                if (stamps.epoch() != null) {
                    rendered.put(kept.ids()[i], part);
                }
            }
        }
        return true;
    }

    /** The page from its parts (written to the response as they are, {@link PageJson}) and its validator. */
    private Page join(Entries kept, Rendered[] parts) {
        byte[][] chosen = new byte[parts.length][];
        ByteBuffer tag = ByteBuffer.allocate(4 + parts.length * 18);
        tag.putInt(parts.length);
        for (int i = 0; i < parts.length; i++) {
            chosen[i] = kept.read()[i] ? parts[i].read() : parts[i].unread();
            if (kept.alsoIn()[i] != null) {
                chosen[i] = ItemJson.withAlsoIn(chosen[i], kept.alsoIn()[i]);
                tag.putInt(Arrays.hashCode(kept.alsoIn()[i]));
            }
            tag.putLong(kept.ids()[i]).putInt((int) parts[i].hash()).put((byte) (kept.read()[i] ? 1 : 0))
                    .put((byte) (kept.starred()[i] ? 1 : 0));
        }
        return new Page(PageJson.ofItems(chosen, kept.starred()), etag(tag.array()), ids(kept.ids()));
    }

    /** Without the cache: MySQL, then the page rendered as a whole. */
    private Page render(long userId, int limit) {
        return page(views.ofTimeline(userId, home.page(userId, TimelineQuery.newest(limit))));
    }

    private Page page(List<ItemView> page) {
        byte[] body = json.writeValueAsBytes(page);
        List<Long> ids = page.stream().map(view -> Long.parseLong(view.id())).toList();
        return new Page(PageJson.of(body), etag(body), ids);
    }

    private static String etag(byte[] basis) {
        return "W/\"" + HexFormat.of().formatHex(PageETag.sha256(basis), 0, 16) + "\"";
    }

    /** The items with these ids, in their order: those of {@code entries} as they are, the rest from the item store. */
    private List<Stored<Item>> ofIds(List<TimelineEntry> entries, List<Long> ids) {
        Map<Long, Stored<Item>> byId = new HashMap<>();
        entries.forEach(entry -> byId.put(entry.id(), entry.item()));
        List<Long> rest = ids.stream().filter(id -> !byId.containsKey(id)).toList();
        if (!rest.isEmpty()) {
            items.getAll(rest).forEach(item -> byId.put(item.id(), item));
        }
        return ids.stream().map(byId::get).filter(Objects::nonNull).toList();
    }

    private static List<Long> ids(long[] ids) {
        return Arrays.stream(ids).boxed().toList();
    }
}
