package dev.tributary.api.item;

import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Media;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.LinkShares;
import dev.tributary.pubsub.Stars;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.Stored;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Turns stored items into {@link ItemView}s for one reader: names their sources, adds like and
 * comment counts, the reader's read and starred flags, and the other feeds the reader's entry of a
 * story came through ({@code also_in}), and the people who posted each item's link
 * ({@code shared_by}, the same for every reader). A page costs a fixed number of queries, whatever
 * its size.
 */
@Component
public class ItemViews {

    private static final SourceRef UNKNOWN_SOURCE = new SourceRef("0", "feed", null, null);

    private final SourceRefs sources;
    private final ReactionCounts reactions;
    private final HomeFeed home;
    private final Stars stars;
    private final LinkShares shares;

    ItemViews(SourceRefs sources, ReactionCounts reactions, HomeFeed home, Stars stars, LinkShares shares) {
        this.sources = sources;
        this.shares = shares;
        this.reactions = reactions;
        this.home = home;
        this.stars = stars;
    }

    /** A page of the reader's home timeline, whose entries already know whether they are read. */
    public List<ItemView> ofTimeline(long readerId, List<TimelineEntry> entries) {
        List<Stored<Item>> items = entries.stream().map(TimelineEntry::item).toList();
        Set<Long> read = new HashSet<>();
        entries.stream().filter(TimelineEntry::read).forEach(e -> read.add(e.id()));
        return views(items, read, starredAmong(readerId, items), alsoIn(readerId, items));
    }

    /** The other feeds each of the reader's entries among these came through (one story, several feeds). */
    private Map<Long, List<Long>> alsoIn(long readerId, List<Stored<Item>> items) {
        return home.alsoIn(readerId, items.stream().map(Stored::id).toList());
    }

    /**
     * The {@code also_in} of each of these entries of the reader that has one (for pages whose
     * items are rendered for nobody in particular and joined with the reader's flags); two queries.
     */
    public Map<Long, List<SourceRef>> alsoInOf(long readerId, Collection<Long> itemIds) {
        Map<Long, List<Long>> alsoIn = home.alsoIn(readerId, itemIds);
        if (alsoIn.isEmpty()) {
            return Map.of();
        }
        Map<Long, SourceRef> refs = sources.of(alsoIn.values().stream().flatMap(List::stream).distinct().toList());
        Map<Long, List<SourceRef>> result = new HashMap<>();
        alsoIn.forEach((id, sourceIds) -> result.put(id,
                sourceIds.stream().map(source -> refs.getOrDefault(source, UNKNOWN_SOURCE)).toList()));
        return result;
    }

    /** Items outside the home timeline (a source's or person's feed): read if read in the reader's inbox. */
    public List<ItemView> of(long readerId, List<Stored<Item>> items) {
        return of(readerId, items, home.readStates(readerId, items.stream().map(Stored::id).toList()));
    }

    /** As {@link #of(long, List)}, with the reader's read states of these items already read ({@link HomeFeed#readStates}). */
    public List<ItemView> of(long readerId, List<Stored<Item>> items, Map<Long, Boolean> readStates) {
        Set<Long> read = new HashSet<>();
        readStates.forEach((id, isRead) -> {
            if (isRead) {
                read.add(id);
            }
        });
        return views(items, read, starredAmong(readerId, items), alsoIn(readerId, items));
    }

    /** Items for nobody in particular (public exports): none read, none starred. */
    public List<ItemView> ofPublic(List<Stored<Item>> items) {
        return views(items, Set.of(), Set.of(), Map.of());
    }

    /** The reader's starred items, in the order asked: starred, and read if read in the reader's inbox. */
    public List<ItemView> ofStarred(long readerId, List<Stored<Item>> items) {
        return views(items, home.readAmong(readerId, items.stream().map(Stored::id).toList()),
                new HashSet<>(items.stream().map(Stored::id).toList()), alsoIn(readerId, items));
    }

    private Set<Long> starredAmong(long readerId, List<Stored<Item>> items) {
        return items.isEmpty() ? Set.of() : stars.starredAmong(readerId, items.stream().map(Stored::id).toList());
    }

    public ItemView of(long readerId, Stored<Item> item) {
        return of(readerId, List.of(item)).getFirst();
    }

    private List<ItemView> views(List<Stored<Item>> items, Set<Long> read, Set<Long> starred, Map<Long, List<Long>> alsoIn) {
        if (items.isEmpty()) {
            return List.of();
        }
        Shown shown = shown(items, alsoIn.values());
        List<ItemView> views = new ArrayList<>(items.size());
        for (Stored<Item> entity : items) {
            views.add(view(entity, shown, read.contains(entity.id()), starred.contains(entity.id()),
                    alsoIn.getOrDefault(entity.id(), List.of())));
        }
        return views;
    }

    /**
     * What many readers add to the same items (items announced to many live streams): each item's
     * view for nobody in particular (none read, none starred, no {@code also_in}), read once for all
     * of them, and each reader's stars and other copies among the items, with one query each for
     * all of them. Put together with {@link ItemJson}, they give what {@link #of} gives each reader.
     */
    public ForReaders forReaders(Set<Long> readers, List<Stored<Item>> items) {
        if (items.isEmpty()) {
            return new ForReaders(Map.of(), Map.of(), Map.of());
        }
        Set<Long> ids = new LinkedHashSet<>(items.stream().map(Stored::id).toList());
        Map<Long, Set<Long>> starred = stars.starredAmong(readers, ids);
        Map<Long, Map<Long, List<Long>>> alsoIn = home.alsoIn(readers, ids);
        Shown shown = shown(items, alsoIn.values().stream().flatMap(theirs -> theirs.values().stream()).toList());
        Map<Long, ItemView> shared = new LinkedHashMap<>();
        items.forEach(entity -> shared.put(entity.id(), view(entity, shown, false, false, List.of())));
        Map<Long, Map<Long, List<SourceRef>>> copies = new HashMap<>();
        alsoIn.forEach((reader, theirs) -> theirs.forEach((item, sourceIds) -> {
            if (!sourceIds.isEmpty()) {
                copies.computeIfAbsent(reader, r -> new HashMap<>()).put(item,
                        sourceIds.stream().map(id -> shown.refs().getOrDefault(id, UNKNOWN_SOURCE)).toList());
            }
        }));
        return new ForReaders(shared, starred, copies);
    }

    /**
     * Items as every reader sees them alike ({@code shared}, by id), and by reader their starred
     * ones and the {@code also_in} of those that have one.
     */
    public record ForReaders(Map<Long, ItemView> shared, Map<Long, Set<Long>> starred,
            Map<Long, Map<Long, List<SourceRef>>> alsoIn) {
    }

    /** What every reader of these items sees alike: source names (with those of {@code alsoIn}'s sources), reactions, sharers. */
    private record Shown(Map<Long, SourceRef> refs, Map<Long, ReactionCount> counts, Map<Long, LinkShares.SharedBy> sharedBy) {
    }

    private Shown shown(List<Stored<Item>> items, Collection<List<Long>> alsoIn) {
        List<Long> ids = items.stream().map(Stored::id).toList();
        List<Long> sourceIds = new ArrayList<>(items.stream().map(i -> i.body().sourceId()).toList());
        alsoIn.forEach(sourceIds::addAll);
        Map<Long, LinkShares.SharedBy> sharedBy = shares.of(items);
        sharedBy.values().forEach(s -> s.people().forEach(person -> sourceIds.add(person.sourceId())));
        return new Shown(sources.of(sourceIds.stream().distinct().toList()), reactions.of(ids), sharedBy);
    }

    private static ItemView view(Stored<Item> entity, Shown shown, boolean read, boolean starred, List<Long> alsoIn) {
        Item item = entity.body();
        Map<Long, SourceRef> refs = shown.refs();
        ReactionCount count = shown.counts().getOrDefault(entity.id(), ReactionCount.NONE);
        return new ItemView(Ids.format(entity.id()), refs.getOrDefault(item.sourceId(), UNKNOWN_SOURCE),
                item.author(), item.title(), item.summary(), null, null, item.url(), item.mediaType().wireName(),
                item.media().stream().map(ItemViews::media).toList(), item.tags(), item.publishedAt(),
                item.receivedAt(), read, count.likes(), count.comments(),
                sharedByView(shown.sharedBy().get(entity.id()), refs),
                alsoIn.stream().map(id -> refs.getOrDefault(id, UNKNOWN_SOURCE)).toList(), starred);
    }

    /** The sharers named by their sources' refs (a person's source is named by their username). */
    private static @Nullable SharedByView sharedByView(LinkShares.@Nullable SharedBy shared, Map<Long, SourceRef> refs) {
        if (shared == null) {
            return null;
        }
        // A sharer whose source went (an account deleted) is counted but cannot be named.
        return new SharedByView(shared.count(), shared.people().stream()
                .filter(person -> refs.containsKey(person.sourceId()) && refs.get(person.sourceId()).title() != null)
                .map(person -> new SharedByView.PersonRef(Ids.format(person.userId()), refs.get(person.sourceId()).title()))
                .toList());
    }

    private static MediaView media(Media media) {
        return new MediaView(media.url(), media.type(), media.width(), media.height());
    }
}
