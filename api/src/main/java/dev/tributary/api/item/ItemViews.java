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
     * The same items for many readers at once (items announced to many live streams): what every
     * reader sees alike is read once, and each reader's starred flags and {@code also_in} with one
     * query for all of them. {@code readStates} by reader, as {@link HomeFeed#readStates(Map)}
     * gives them; the answer by reader, each reader's items in the order given.
     */
    public Map<Long, List<ItemView>> ofReaders(Map<Long, List<Stored<Item>>> itemsByReader,
            Map<Long, Map<Long, Boolean>> readStates) {
        Map<Long, Stored<Item>> all = new LinkedHashMap<>();
        itemsByReader.values().forEach(items -> items.forEach(item -> all.putIfAbsent(item.id(), item)));
        Map<Long, List<ItemView>> views = new HashMap<>();
        if (all.isEmpty()) {
            itemsByReader.keySet().forEach(reader -> views.put(reader, List.of()));
            return views;
        }
        Set<Long> readers = itemsByReader.keySet();
        Map<Long, Set<Long>> starred = stars.starredAmong(readers, all.keySet());
        Map<Long, Map<Long, List<Long>>> alsoIn = home.alsoIn(readers, all.keySet());
        Shown shown = shown(List.copyOf(all.values()),
                alsoIn.values().stream().flatMap(theirs -> theirs.values().stream()).toList());
        itemsByReader.forEach((reader, items) -> {
            Map<Long, Boolean> states = readStates.getOrDefault(reader, Map.of());
            Set<Long> theirStars = starred.getOrDefault(reader, Set.of());
            Map<Long, List<Long>> theirCopies = alsoIn.getOrDefault(reader, Map.of());
            views.put(reader, items.stream().map(entity -> view(entity, shown, states.getOrDefault(entity.id(), false),
                    theirStars.contains(entity.id()), theirCopies.getOrDefault(entity.id(), List.of()))).toList());
        });
        return views;
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
                item.author(), item.title(), item.summary(), item.url(), item.mediaType().wireName(),
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
