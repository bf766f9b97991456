package dev.tributary.pubsub.inbox;

import dev.tributary.pubsub.InboxEvent;
import dev.tributary.storage.Transactions;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Read and unread marks on a person's inbox. Each change locks the rows it flips and moves the
 * Redis counters by exactly what flipped before it commits, so counts stay exact under
 * concurrent fan-out, marking and rebuilds.
 */
@Component
class ReadMarks {

    /** Read state changed otherwise than by a new entry: the live stream refreshes its counts. */
    private static final InboxEvent UNREAD = new InboxEvent(InboxEvent.Type.UNREAD, 0);

    /** Entries per "mark read up to" transaction. */
    static final int MARK_BATCH = 1000;

    private final Transactions tx;
    private final InboxTable inbox;
    private final UnreadCounters counters;

    ReadMarks(Transactions tx, InboxTable inbox, UnreadCounters counters) {
        this.tx = tx;
        this.inbox = inbox;
        this.counters = counters;
    }

    /** Sets one entry's read flag; false if it is not in the person's inbox or already was so. */
    boolean set(long userId, long itemId, boolean read) {
        return tx.write("mark " + itemId + (read ? " read" : " unread"), status -> {
            Optional<InboxRow> changed = inbox.setRead(userId, itemId, read);
            changed.ifPresent(row -> counters.apply(List.of(UnreadDelta.of(row, read ? -1 : 1)), UNREAD, List.of(userId)));
            return changed.isPresent();
        });
    }

    /** Sets the read flag of these entries in one transaction; how many flipped. */
    int setAll(long userId, Collection<Long> itemIds, boolean read) {
        return setAll(userId, itemIds, read, id -> { });
    }

    /** {@link #setAll(long, Collection, boolean)}, telling {@code flipped} the item id of each entry it changed. */
    int setAll(long userId, Collection<Long> itemIds, boolean read, LongConsumer flipped) {
        return tx.write("mark " + itemIds.size() + (read ? " read" : " unread"), status -> {
            List<InboxRow> changed = inbox.setRead(userId, itemIds, read);
            if (!changed.isEmpty()) {
                counters.apply(changed.stream().map(row -> UnreadDelta.of(row, read ? -1 : 1)).toList(), UNREAD,
                        List.of(userId));
            }
            changed.forEach(row -> flipped.accept(row.itemId()));
            return changed.size();
        });
    }

    /**
     * Marks read every entry up to and including {@code upToItemId}, of one source or all; how many
     * changed. Works down from the id in batches of {@link #MARK_BATCH}, one transaction each, so
     * marking a whole horizon (10,000 entries) never holds a person's rows for long and fan-out into
     * the same inbox goes on between batches; each batch moves the counters by exactly what it
     * flipped. Entries that arrive meanwhile below the id may or may not be marked.
     */
    int markReadUpTo(long userId, long upToItemId, @Nullable Long sourceId) {
        return markReadUpTo(userId, upToItemId, sourceId, id -> { });
    }

    /** {@link #markReadUpTo(long, long, Long)}, telling {@code marked} the item id of each entry it marked (once committed). */
    int markReadUpTo(long userId, long upToItemId, @Nullable Long sourceId, LongConsumer marked) {
        int total = 0;
        long cursor = upToItemId;
        while (true) {
            long below = cursor;
            List<InboxRow> batch = tx.write("mark read up to " + below, status -> {
                List<InboxRow> rows = inbox.markReadUpTo(userId, below, sourceId, MARK_BATCH);
                if (!rows.isEmpty()) {
                    counters.apply(rows.stream().map(row -> UnreadDelta.of(row, -1)).toList(), UNREAD, List.of(userId));
                }
                return rows;
            });
            total += batch.size();
            batch.forEach(row -> marked.accept(row.itemId()));
            if (batch.size() < MARK_BATCH) {
                return total;
            }
            cursor = batch.getLast().itemId() - 1;
        }
    }
}
