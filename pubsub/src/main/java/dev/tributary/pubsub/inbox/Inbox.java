package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.InboxScan;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import dev.tributary.pubsub.TimelineStamps;
import dev.tributary.pubsub.Unread;
import dev.tributary.storage.Transactions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionStatus;

/**
 * The one façade of a person's inbox: its table, the home-timeline window read from it, read
 * marks, the unread counters, trimming, and the stamps that void kept pages. Every change to an
 * inbox passes here, so counters, announcements and stamps move with it without a caller having
 * to remember them. Used by pubsub's own parts; readers outside pubsub go through
 * {@link dev.tributary.pubsub.HomeFeed}.
 */
@Service
public class Inbox {

    private final InboxTable table;
    private final TimelinePages pages;
    private final ReadMarks marks;
    private final UnreadCounters counters;
    private final PageStamps stamps;
    private final InboxTrimQueue trimQueue;
    private final Transactions tx;

    Inbox(InboxTable table, TimelinePages pages, ReadMarks marks, UnreadCounters counters, PageStamps stamps,
            InboxTrimQueue trimQueue, Transactions tx) {
        this.table = table;
        this.pages = pages;
        this.marks = marks;
        this.counters = counters;
        this.stamps = stamps;
        this.trimQueue = trimQueue;
        this.tx = tx;
    }

    /**
     * Writes the rows not there yet, inside the caller's transaction, and returns exactly those:
     * their unread counts move and {@code event} is announced to their people before the commit
     * (with the rows locked, which keeps a concurrent rebuild exact), and the inboxes are queued
     * for trimming once it commits.
     */
    public List<InboxRow> deliver(List<InboxRow> rows, TransactionStatus status, InboxEvent event) {
        List<InboxRow> inserted = table.deliver(rows, status);
        if (inserted.isEmpty()) {
            return inserted;
        }
        List<Long> people = inserted.stream().map(InboxRow::userId).distinct().toList();
        counters.apply(inserted.stream().filter(row -> !row.read()).map(row -> UnreadDelta.of(row, 1)).toList(), event, people);
        tx.afterCommit(() -> trimQueue.add(people));
        return inserted;
    }

    /**
     * As {@link #deliver}, for fan-out: each person is told of exactly the items that reached
     * them ({@code item <id>} each), so one batch may carry several items to a page of people.
     */
    public List<InboxRow> deliverItems(List<InboxRow> rows, TransactionStatus status) {
        return moved(table.deliver(rows, status));
    }

    /**
     * As {@link #deliverItems}, for a caller that owns its transaction and expects every row to be
     * new (a fan-out batch): no savepoint. If a row was there already it throws {@link Conflict}
     * before anything moved in Redis; the caller rolls back and calls {@link #deliverItems}.
     */
    public List<InboxRow> deliverNewItems(List<InboxRow> rows) {
        table.insertNew(rows);
        return moved(rows);
    }

    /** Some rows of a batch expected new were in their inboxes already; nothing of it may commit. */
    public static final class Conflict extends RuntimeException {
        Conflict(int rows) {
            super("some of " + rows + " inbox rows were there already", null, false, false);
        }
    }

    private List<InboxRow> moved(List<InboxRow> inserted) {
        if (inserted.isEmpty()) {
            return inserted;
        }
        Map<Long, List<String>> announcements = new LinkedHashMap<>();
        for (InboxRow row : inserted) {
            announcements.computeIfAbsent(row.userId(), user -> new ArrayList<>(1))
                    .add(new InboxEvent(InboxEvent.Type.ITEM, row.itemId()).encode());
        }
        counters.apply(inserted.stream().filter(row -> !row.read()).map(row -> UnreadDelta.of(row, 1)).toList(), Map.of(),
                announcements);
        List<Long> people = List.copyOf(announcements.keySet());
        tx.afterCommit(() -> trimQueue.add(people));
        return inserted;
    }

    /**
     * These people have a live stream open: they are announced to for {@code ttl} (see
     * {@link dev.tributary.pubsub.HomeFeed#listening}). One Redis round trip.
     */
    public void listening(Collection<Long> people, Duration ttl) {
        counters.listening(people, ttl);
    }

    /**
     * Removes up to {@code limit} entries of a tombstoned item, of people after {@code afterUser},
     * inside the caller's transaction; their counts move and the deletion is announced.
     */
    public List<InboxRow> retract(long itemId, long afterUser, int limit) {
        List<InboxRow> rows = table.lockRowsOfItem(itemId, afterUser, limit);
        table.delete(rows);
        if (!rows.isEmpty()) {
            counters.apply(rows.stream().filter(row -> !row.read()).map(row -> UnreadDelta.of(row, -1)).toList(),
                    new InboxEvent(InboxEvent.Type.DELETE, itemId), rows.stream().map(InboxRow::userId).toList());
        }
        return rows;
    }

    /** Up to {@code limit} people after {@code afterUser} whose inbox holds the item (a plain read). */
    public List<Long> recipientsAfter(long itemId, long afterUser, int limit) {
        return table.recipientsAfter(itemId, afterUser, limit);
    }

    /** Drops these people's counters, to be rebuilt exactly on their next read (a batch that may have died half-way). */
    public void invalidateCounters(Collection<Long> people) {
        counters.invalidate(people);
    }

    /** Voids every kept page that shows these items, once the caller's transaction commits. */
    public void itemsChanged(Collection<Long> itemIds) {
        stamps.itemsChanged(itemIds);
    }

    /**
     * Something the person's pages show about them changed outside the inbox (their stars): their
     * kept pages are void once the caller's transaction commits.
     */
    public void personChanged(long userId) {
        stamps.peopleChanged(List.of(userId));
    }

    /** One page of the bounded home timeline, newest first. */
    public List<TimelineEntry> page(long userId, TimelineQuery query) {
        return pages.page(userId, query);
    }

    /** The stamps a kept page of these items is checked against: one Redis round trip. */
    public TimelineStamps stamps(long userId, List<Long> itemIds) {
        return stamps.read(userId, itemIds, List.of());
    }

    /**
     * As {@link #stamps(long, List)} for a person who follows pulled sources: each source's stamp
     * is folded into the person's, so a pulled publish voids their kept pages too.
     */
    public TimelineStamps stamps(long userId, List<Long> itemIds, List<Long> pulledSourceIds) {
        return stamps.read(userId, itemIds, pulledSourceIds);
    }

    /** Voids every kept page of these pulled sources' followers, once the caller's transaction commits. */
    public void sourcesChanged(Collection<Long> sourceIds) {
        stamps.sourcesChanged(sourceIds);
    }

    /** The ids of the person's newest {@code count} entries, newest first (the window's rows). */
    public List<Long> newestIds(long userId, int count) {
        return pages.newestIds(userId, count);
    }

    /** The person's exact unread counts. */
    public Unread unread(long userId) {
        return counters.read(userId);
    }

    /** Sets one entry's read flag; false if it is not in the person's inbox or already was so. */
    public boolean setRead(long userId, long itemId, boolean read) {
        return marks.set(userId, itemId, read);
    }

    /** Marks read every entry up to and including {@code upToItemId}, of one source or all; how many changed. */
    public int markReadUpTo(long userId, long upToItemId, @Nullable Long sourceId) {
        return marks.markReadUpTo(userId, upToItemId, sourceId);
    }

    /** Sets the read flag of those of these entries that are in the person's inbox; how many changed. */
    public int setRead(long userId, Collection<Long> itemIds, boolean read) {
        return itemIds.isEmpty() ? 0 : marks.setAll(userId, itemIds, read);
    }

    /** The ids a scan selects. */
    public List<Long> ids(long userId, InboxScan scan) {
        return table.ids(userId, scan);
    }

    /** Whether the item is in the person's inbox (read or not). */
    public boolean holds(long userId, long itemId) {
        return table.find(userId, itemId).isPresent();
    }

    /** Of these items, those in the person's inbox and their read flags; one query. */
    public Map<Long, Boolean> readStates(long userId, Collection<Long> itemIds) {
        return table.readStates(userId, itemIds);
    }

    /** Which of these items are in the person's inbox; one query. */
    public Set<Long> heldAmong(long userId, Collection<Long> itemIds) {
        return table.heldAmong(userId, itemIds);
    }

    /** Which of these items the person has read; one query. */
    public Set<Long> readAmong(long userId, Collection<Long> itemIds) {
        return table.readAmong(userId, itemIds);
    }

    /** A page over the whole inbox by item id: after {@code sinceId} oldest first, else before {@code maxId} newest first. */
    public List<TimelineEntry> horizon(long userId, @Nullable Long sinceId, @Nullable Long maxId, int limit) {
        return pages.horizon(userId, sinceId, maxId, limit);
    }

    /** The person's entries among these items, newest first. */
    public List<TimelineEntry> among(long userId, Collection<Long> itemIds) {
        return pages.among(userId, itemIds);
    }

    /** Up to {@code limit} unread item ids, newest first. */
    public List<Long> unreadIds(long userId, int limit) {
        return table.unreadIds(userId, limit);
    }

    /** Entries in the person's inbox, read or not. */
    public int size(long userId) {
        return table.count(userId);
    }
}
