package dev.tributary.pubsub;

import dev.tributary.pubsub.inbox.Inbox;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * A person's home feed as readers see it: the bounded home timeline, read marks, exact unread
 * counts, and the stamps that tell whether a kept page still holds.
 */
@Service
public class HomeFeed {

    private final Inbox inbox;

    HomeFeed(Inbox inbox) {
        this.inbox = inbox;
    }

    /**
     * One page of the home timeline, newest first: inside the window of the newest entries, or over
     * the whole unread horizon for unread-only and per-source pages ({@link TimelineQuery#readsHorizon()}).
     */
    public List<TimelineEntry> page(long userId, TimelineQuery query) {
        return inbox.page(userId, query);
    }

    /**
     * The stamps of a page of these items (one Redis round trip): a page kept under equal stamps
     * is still the one {@link #page} would give.
     */
    public TimelineStamps stamps(long userId, List<Long> itemIds) {
        return inbox.stamps(userId, itemIds);
    }

    /** The person's exact unread counts. */
    public Unread unread(long userId) {
        return inbox.unread(userId);
    }

    /** Marks one entry read; false if it is not in the person's inbox or was read already. */
    public boolean markRead(long userId, long itemId) {
        return inbox.setRead(userId, itemId, true);
    }

    /** Marks one entry unread again; false if it is not in the person's inbox or was unread. */
    public boolean markUnread(long userId, long itemId) {
        return inbox.setRead(userId, itemId, false);
    }

    /** Marks read every entry up to and including {@code upToItemId}, of one source or all; how many changed. */
    public int markReadUpTo(long userId, long upToItemId, @Nullable Long sourceId) {
        return inbox.markReadUpTo(userId, upToItemId, sourceId);
    }

    /** Whether the item is in the person's inbox, read or not. */
    public boolean holds(long userId, long itemId) {
        return inbox.holds(userId, itemId);
    }

    /** Which of these items the person has read (in their inbox and marked read); one query. */
    public Set<Long> readAmong(long userId, Collection<Long> itemIds) {
        return inbox.readAmong(userId, itemIds);
    }

    /**
     * Something pages show about this item changed outside pubsub (its likes or comments): pages
     * that show it are void once the caller's transaction commits.
     */
    public void itemShownChanged(long itemId) {
        inbox.itemsChanged(List.of(itemId));
    }
}
