package dev.tributary.pubsub;

import dev.tributary.storage.Transactions;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;

/**
 * Read and unread marks on a person's inbox. Each change locks the rows it flips and moves the
 * Redis counters by exactly what flipped before it commits, so counts stay exact under
 * concurrent fan-out, marking and rebuilds.
 */
@Service
public class ReadState {

    /** Read state changed otherwise than by a new entry: the live stream refreshes its counts. */
    private static final InboxEvent UNREAD = new InboxEvent(InboxEvent.Type.UNREAD, 0);

    private final Transactions tx;
    private final Inbox inbox;
    private final UnreadCounters counters;

    ReadState(Transactions tx, Inbox inbox, UnreadCounters counters) {
        this.tx = tx;
        this.inbox = inbox;
        this.counters = counters;
    }

    /** Marks one entry read; false if it is not in the person's inbox or was read already. */
    public boolean markRead(long userId, long itemId) {
        return set(userId, itemId, true);
    }

    /** Marks one entry unread again; false if it is not in the person's inbox or was unread. */
    public boolean markUnread(long userId, long itemId) {
        return set(userId, itemId, false);
    }

    /** Whether the item is in the person's inbox (read or not). */
    public boolean inInbox(long userId, long itemId) {
        return inbox.find(userId, itemId).isPresent();
    }

    /** Which of these items the person has read (in their inbox and marked read); one query. */
    public Set<Long> readAmong(long userId, Collection<Long> itemIds) {
        return inbox.readAmong(userId, itemIds);
    }

    /**
     * Marks read every entry up to and including {@code upToItemId}, optionally of one source
     * only; returns how many entries changed.
     */
    public int markReadUpTo(long userId, long upToItemId, @Nullable Long sourceId) {
        return tx.write("mark read up to " + upToItemId, status -> {
            List<InboxRow> marked = inbox.markReadUpTo(userId, upToItemId, sourceId);
            if (!marked.isEmpty()) {
                counters.apply(marked.stream().map(row -> UnreadDelta.of(row, -1)).toList(), UNREAD, List.of(userId));
            }
            return marked.size();
        });
    }

    private boolean set(long userId, long itemId, boolean read) {
        return tx.write("mark " + itemId + (read ? " read" : " unread"), status -> {
            Optional<InboxRow> changed = inbox.setRead(userId, itemId, read);
            changed.ifPresent(row -> counters.apply(List.of(UnreadDelta.of(row, read ? -1 : 1)), UNREAD, List.of(userId)));
            return changed.isPresent();
        });
    }
}
