package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.Inbox;
import dev.tributary.pubsub.pull.PulledFeed;
import dev.tributary.storage.IdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * A person's home feed as readers see it: the bounded home timeline, read marks, exact unread
 * counts, and the stamps that tell whether a kept page still holds. Entries reach a person pushed
 * (their inbox) or pulled (items of the pulled sources they follow, read at timeline time); every
 * method here answers for both alike.
 */
@Service
public class HomeFeed {

    private final Inbox inbox;
    private final PulledFeed pulled;
    private final Folders folders;

    HomeFeed(Inbox inbox, PulledFeed pulled, Folders folders) {
        this.inbox = inbox;
        this.pulled = pulled;
        this.folders = folders;
    }

    /**
     * One page of the home timeline, newest first: inside the window of the newest entries, or over
     * the whole unread horizon for unread-only and per-source pages ({@link TimelineQuery#readsHorizon()}).
     */
    public List<TimelineEntry> page(long userId, TimelineQuery query) {
        return pulled.page(userId, query);
    }

    /**
     * The stamps of a page of these items (one Redis round trip): a page kept under equal stamps
     * is still the one {@link #page} would give.
     */
    public TimelineStamps stamps(long userId, List<Long> itemIds) {
        return inbox.stamps(userId, itemIds, pulled::sourcesOf, List.of());
    }

    /**
     * The same, with {@code stories.get(i)} the story whose sharers item {@code i} shows
     * ({@link LinkShares#storyShown}; null: none): a share of it voids the item's kept rendering.
     */
    public TimelineStamps stamps(long userId, List<Long> itemIds, List<@Nullable Long> stories) {
        return inbox.stamps(userId, itemIds, pulled::sourcesOf, stories);
    }

    /**
     * The newest {@code limit} entries of the pulled sources the person follows, newest first, as
     * this node's heads of those sources give them under {@code stamps} (as {@link #stamps} just
     * read them; no Redis or MySQL read while the heads are current): to
     * bring a kept newest page up to date when only those sources changed ({@link
     * TimelineStamps#own} unchanged, so no mark, star, relay or follow of the person's moved since).
     * Each is read or not by its source's read position; an item published after the page was read
     * cannot have been marked or starred before it, nor reached the inbox. Null when the heads cannot tell.
     */
    public @Nullable List<PulledEntry> newestPulled(long userId, int limit, TimelineStamps stamps) {
        return pulled.newest(userId, limit, stamps);
    }

    /**
     * The ids this node's heads of these pulled sources hold above {@code aboveId}, newest first, at
     * most {@code limit}, with no Redis or MySQL read: what a kept newest page will likely gain, so
     * their stamps can be read with the page's ({@link #stamps}) before {@link #newestPulled}
     * says what it does gain.
     */
    public List<Long> pulledAhead(Collection<Long> sourceIds, long aboveId, int limit) {
        return pulled.ahead(sourceIds, aboveId, limit);
    }

    /** A pulled entry of a person's newest page: the item, and whether their read position covers it. */
    public record PulledEntry(long itemId, boolean read) {
    }

    /**
     * How long {@link #listening} marks a person as listening; a stream renews it well within
     * this (a third of it is the most a renewal may be late by).
     */
    public static final Duration LISTENING_TTL = Duration.ofSeconds(60);

    /**
     * These people hold a live stream open (their channel, {@link InboxEvent#channel}, is or is
     * about to be subscribed): their inbox changes are announced for {@link #LISTENING_TTL}.
     * Nobody else's are, which spares fan-out a PUBLISH per delivered row. Call it before
     * subscribing (so nothing published after the subscription is missed) and renew it while open.
     * One Redis round trip.
     */
    public void listening(Collection<Long> userIds) {
        inbox.listening(userIds, LISTENING_TTL);
    }

    /**
     * The pulled sources the person follows: a live stream listens to their channels
     * ({@link InboxEvent#sourceChannel}) besides the person's own. The node's kept list of them
     * (one Redis round trip), so opening ten thousand streams does not run ten thousand joins.
     */
    public List<Long> pulledSources(long userId) {
        return inbox.pulledSources(userId, pulled::sourcesOf, false).sourceIds();
    }

    /**
     * Removes what the pulled sources keep for items older than {@code tributary.inbox.keep} (no
     * read shows them any more), in batches of {@code batch} rows reported as they go; the total.
     */
    public long removeBeyondHorizon(int batch, java.util.function.LongConsumer removed) {
        return pulled.removeBeyondHorizon(batch, removed);
    }

    /** The person's exact unread counts: one Redis round trip, and a statement only for pulled sources they follow. */
    public Unread unread(long userId) {
        return unread(userId, inbox.unreadAndPulledSources(userId, pulled::sourcesOf));
    }

    private Unread unread(long userId, Inbox.UnreadAndPulled read) {
        return pulled.unread(userId, read.unread(), read.pulled(), read.own());
    }

    /**
     * The person's exact unread counts and their folders with the sources filed in each (to count
     * per folder): the same round trip, and the folders from this node's copy while they are
     * unchanged ({@link Folders#sourcesByFolder} otherwise).
     */
    public UnreadByFolder unreadByFolder(long userId) {
        return unreadByFolder(List.of(userId)).get(userId);
    }

    /** {@link #unreadByFolder(long)} of many people, by person: one Redis round trip and at most one statement for all of them. */
    public Map<Long, UnreadByFolder> unreadByFolder(Collection<Long> people) {
        Map<Long, Inbox.UnreadAndPulled> reads = inbox.unreadAndPulledSources(people, pulled::sourcesOf);
        Map<Long, PulledFeed.Counted> counted = new java.util.HashMap<>();
        reads.forEach((person, read) -> counted.put(person, new PulledFeed.Counted(read.unread(), read.pulled(), read.own())));
        Map<Long, PulledFeed.Counts> counts = pulled.counts(counted);
        Map<Long, UnreadByFolder> answers = new java.util.HashMap<>();
        reads.forEach((person, read) -> answers.put(person, new UnreadByFolder(counts.get(person).unread(),
                inbox.folders(person, read.foldersStamp(), folders::sourcesByFolder), counts.get(person).agesAt())));
        return answers;
    }

    /**
     * A version of the person's {@link #unreadByFolder} answer (one Redis round trip): what a node
     * keeps of it holds while the version is unchanged, because every change to their counts or
     * folders (and each publish or tombstone of a pulled source they follow) moves it after its
     * commit and it is read before the counts; until {@link UnreadByFolder#agesAt} at the latest.
     * Null when this node keeps no current list of their pulled sources: read them.
     */
    public @Nullable String unreadVersion(long userId) {
        return inbox.countsVersion(userId);
    }

    /**
     * The Redis keys whose values make {@link #unreadVersion}, for a caller that can read them in a
     * round trip it makes anyway (one that counts the request, say); empty when there is nothing to
     * read along (call {@link #unreadVersion(long)}).
     */
    public List<String> unreadVersionKeys(long userId) {
        return inbox.countsVersionKeys(userId);
    }

    /**
     * {@link #unreadVersion(long)} from the values of {@link #unreadVersionKeys}, read in the same
     * order and before the counts; null when they no longer apply (call {@link #unreadVersion(long)}).
     */
    public @Nullable String unreadVersion(long userId, List<String> keys, List<@Nullable String> values) {
        return inbox.countsVersion(userId, keys, values);
    }

    /**
     * {@link #unreadVersion} of many people in one round trip, by person (those with none absent),
     * to read before their {@link #unreadByFolder(Collection)} is read for them together.
     */
    public Map<Long, String> unreadVersions(Collection<Long> people) {
        return inbox.countsVersions(people);
    }

    /**
     * A person's unread counts, and their folders with the sources filed in each; {@code agesAt}:
     * the counts change with no write after that moment (an unread pulled item leaves the
     * horizon), so whatever keeps them under a version keeps them only until then; null: never.
     */
    public record UnreadByFolder(Unread unread, Map<Long, Set<Long>> sourcesByFolder, @Nullable Instant agesAt) {
    }

    /** Marks one entry read; false if it is not in the person's inbox or was read already. */
    public boolean markRead(long userId, long itemId) {
        return inbox.setRead(userId, itemId, true) || pulled.setRead(userId, itemId, true);
    }

    /** Marks one entry unread again; false if it is not in the person's inbox or was unread. */
    public boolean markUnread(long userId, long itemId) {
        return inbox.setRead(userId, itemId, false) || pulled.setRead(userId, itemId, false);
    }

    /** Marks read every entry up to and including {@code upToItemId}, of one source or all; how many changed. */
    public int markReadUpTo(long userId, long upToItemId, @Nullable Long sourceId) {
        return inbox.markReadUpTo(userId, upToItemId, sourceId) + pulled.markReadUpTo(userId, upToItemId, sourceId);
    }

    /**
     * {@link #markReadUpTo(long, long, Long)}, telling {@code marked} the item id of each entry it
     * marked: exactly those, so that marking them unread again undoes it and nothing else.
     */
    public int markReadUpTo(long userId, long upToItemId, @Nullable Long sourceId, java.util.function.LongConsumer marked) {
        return inbox.markReadUpTo(userId, upToItemId, sourceId, marked)
                + pulled.markReadUpTo(userId, upToItemId, sourceId, marked);
    }

    /**
     * Marks these entries read (at most {@link #MAX_MARKS}, in one transaction); how many changed.
     * Ids not in the person's inbox, or read already, are skipped.
     */
    public int markRead(long userId, Collection<Long> itemIds) {
        return setRead(userId, checkedMarks(itemIds), true);
    }

    /** Marks these entries unread again (at most {@link #MAX_MARKS}); how many changed. */
    public int markUnread(long userId, Collection<Long> itemIds) {
        return setRead(userId, checkedMarks(itemIds), false);
    }

    /** Inbox entries through the inbox, the rest as pulled entries (each part in one transaction). */
    private int setRead(long userId, Collection<Long> itemIds, boolean read) {
        if (itemIds.isEmpty()) {
            return 0;
        }
        Set<Long> held = inbox.heldAmong(userId, itemIds);
        List<Long> rest = itemIds.stream().filter(id -> !held.contains(id)).distinct().toList();
        return inbox.setRead(userId, held, read) + pulled.setRead(userId, rest, read);
    }

    /** Most entries one {@link #markRead(long, Collection)} changes. */
    public static final int MAX_MARKS = 1000;

    private static Collection<Long> checkedMarks(Collection<Long> itemIds) {
        if (itemIds.size() > MAX_MARKS) {
            throw new IllegalArgumentException("at most " + MAX_MARKS + " ids, not " + itemIds.size());
        }
        return itemIds;
    }

    /** The ids of the person's inbox entries a scan selects, in its order. */
    public List<Long> ids(long userId, InboxScan scan) {
        if (scan.sourceIds() != null && scan.sourceIds().isEmpty()) {
            return List.of();
        }
        return pulled.ids(userId, scan, inbox.ids(userId, scan));
    }

    /** Whether the item is in the person's inbox, read or not. */
    public boolean holds(long userId, long itemId) {
        return inbox.holds(userId, itemId) || !pulled.readStates(userId, List.of(itemId)).isEmpty();
    }

    /**
     * Of these items, those in the person's inbox and whether each is read; an item that reached
     * them as another copy of a story they hold shares that entry's flag.
     */
    public Map<Long, Boolean> readStates(long userId, Collection<Long> itemIds) {
        return readStates(Map.of(userId, itemIds)).get(userId);
    }

    /**
     * {@link #readStates(long, Collection)} of many people at once, each of their own items, by
     * person (every one of them present): the inbox's part in two queries for all of them, pulled
     * sources' items in one more.
     */
    public Map<Long, Map<Long, Boolean>> readStates(Map<Long, ? extends Collection<Long>> itemsByPerson) {
        Set<Long> all = new java.util.HashSet<>();
        itemsByPerson.values().forEach(all::addAll);
        Map<Long, Map<Long, Boolean>> inboxes = inbox.readStates(itemsByPerson.keySet(), all);
        Map<Long, Map<Long, Boolean>> states = new java.util.HashMap<>();
        Map<Long, List<Long>> rest = new java.util.HashMap<>();
        itemsByPerson.forEach((person, asked) -> {
            Map<Long, Boolean> inInbox = inboxes.getOrDefault(person, Map.of());
            Map<Long, Boolean> theirs = new java.util.HashMap<>();
            for (long id : asked) {
                Boolean read = inInbox.get(id);
                if (read != null) {
                    theirs.put(id, read);
                } else {
                    rest.computeIfAbsent(person, p -> new java.util.ArrayList<>()).add(id);
                }
            }
            states.put(person, theirs);
        });
        if (!rest.isEmpty()) {
            pulled.readStates(rest).forEach((person, theirs) -> states.get(person).putAll(theirs));
        }
        return states;
    }

    /** Which of these items are in the person's inbox (as an entry or a copy of one), read or not. */
    public Set<Long> heldAmong(long userId, Collection<Long> itemIds) {
        return readStates(userId, itemIds).keySet();
    }

    /** Which of these items the person has read (in their inbox and marked read); one query. */
    public Set<Long> readAmong(long userId, Collection<Long> itemIds) {
        Set<Long> read = new java.util.HashSet<>();
        readStates(userId, itemIds).forEach((id, isRead) -> {
            if (isRead) {
                read.add(id);
            }
        });
        return read;
    }

    /**
     * The other sources each of these entries came through: the feeds whose copies of the same
     * story the person's one entry stands for (oldest first). Entries without copies are absent; one query.
     */
    public Map<Long, List<Long>> alsoIn(long userId, Collection<Long> itemIds) {
        return itemIds.isEmpty() ? Map.of() : inbox.alsoIn(userId, itemIds);
    }

    /** {@link #alsoIn(long, Collection)} of many people at once, by person (those with none absent); one query. */
    public Map<Long, Map<Long, List<Long>>> alsoIn(Collection<Long> people, Collection<Long> itemIds) {
        return inbox.alsoIn(people, itemIds);
    }

    /**
     * Something pages show about this item changed outside pubsub (its likes or comments): pages
     * that show it are void once the caller's transaction commits.
     */
    public void itemShownChanged(long itemId) {
        inbox.itemsChanged(List.of(itemId));
    }

    /**
     * A page of the person's whole inbox (the unread horizon, read entries included, not only the
     * home window), by item id: newer than {@code sinceId} oldest first when it is given, else
     * older than {@code maxId} (or from the newest) newest first. For sync APIs (Fever) that walk
     * every entry.
     */
    public List<TimelineEntry> inboxPage(long userId, @Nullable Long sinceId, @Nullable Long maxId, int limit) {
        if (limit < 1 || limit > TimelineQuery.MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + TimelineQuery.MAX_LIMIT + ", not " + limit);
        }
        return pulled.horizon(userId, sinceId, maxId, limit, inbox.horizon(userId, sinceId, maxId, limit));
    }

    /** The person's entries among these items, newest first; other people's and unknown ids are absent. */
    public List<TimelineEntry> inboxEntries(long userId, Collection<Long> itemIds) {
        if (itemIds.size() > TimelineQuery.MAX_LIMIT) {
            throw new IllegalArgumentException("at most " + TimelineQuery.MAX_LIMIT + " ids, not " + itemIds.size());
        }
        return pulled.among(userId, itemIds, inbox.among(userId, itemIds));
    }

    /**
     * The ids of the person's unread entries, newest first, at most {@link #MAX_UNREAD_IDS}: sync
     * clients fetch them in one answer, so a person with more unread entries than that sees the
     * newest ones (the counts from {@link #unread} stay exact).
     */
    public List<Long> unreadIds(long userId) {
        return pulled.unreadIds(userId, MAX_UNREAD_IDS, inbox.unreadIds(userId, MAX_UNREAD_IDS));
    }

    /** Most ids {@link #unreadIds} returns. */
    public static final int MAX_UNREAD_IDS = 10_000;

    /** Entries in the person's inbox, read or not (the whole horizon). */
    public int inboxSize(long userId) {
        return Math.toIntExact(inbox.size(userId) + pulled.size(userId));
    }

    /**
     * Marks read every entry whose item was stored at {@code before} or earlier (to the second; an
     * item's id dates from when it was stored), of one source or all; how many changed. Fever's
     * "mark read before" means exactly this: what the app had seen at its last refresh.
     */
    public int markReadBefore(long userId, Instant before, @Nullable Long sourceId) {
        long upTo = IdGenerator.lowestIdAt(before.plusSeconds(1).truncatedTo(ChronoUnit.SECONDS)) - 1;
        return markReadUpTo(userId, upTo, sourceId);
    }
}
