package dev.tributary.api.stream;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.timeline.UnreadView;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Stored;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Writes a stream's events: {@code item} (id: the item's id, data: its JSON, as in timelines),
 * {@code delete} (data: the id), {@code unread} (data: the counts) and heartbeat comments.
 * A batch of announcements costs a fixed number of queries, like a timeline page. Those reads
 * take one of the node's {@link StreamSettings#concurrentReads()} permits and the writes to the
 * client happen after it is released: an item announced to every open stream queues its
 * renders here instead of at the connection pool, and a slow client holds no permit.
 */
@Component
class StreamWriter {

    /** Entries per replay page; a replay stops at the timeline's window anyway. */
    private static final int REPLAY_PAGE = 100;
    /** Bounds a replay even if entries keep arriving while it reads. */
    private static final int MAX_REPLAY_PAGES = 20;

    private final HomeFeed timeline;
    private final Items items;
    private final ItemViews views;

    private final Semaphore reads;

    StreamWriter(HomeFeed timeline, Items items, ItemViews views, StreamSettings settings) {
        this.reads = new Semaphore(settings.concurrentReads());
        this.timeline = timeline;
        this.items = items;
        this.views = views;
    }

    /**
     * Sends the home-timeline entries newer than {@code lastEventId}, oldest first; returns their
     * ids, so that their announcements, queued meanwhile, are not sent twice.
     */
    Set<Long> replay(HomeStream stream, long lastEventId) throws IOException, InterruptedException {
        Set<Long> sent = new HashSet<>();
        long after = lastEventId;
        for (int page = 0; page < MAX_REPLAY_PAGES && !stream.closed(); page++) {
            TimelineQuery query = new TimelineQuery(null, null, after, REPLAY_PAGE, null, null, null, false);
            List<TimelineEntry> entries;
            List<ItemView> rendered;
            reads.acquire();
            try {
                entries = timeline.page(stream.userId(), query).reversed();
                rendered = views.ofTimeline(stream.userId(), entries);
            } finally {
                reads.release();
            }
            for (ItemView view : rendered) {
                item(stream, view);
            }
            entries.forEach(entry -> sent.add(entry.id()));
            if (entries.size() < REPLAY_PAGE) {
                break;
            }
            after = entries.getLast().id();
        }
        return sent;
    }

    /** Sends a batch of announcements in order, then the unread counts they changed (once). */
    void send(HomeStream stream, List<InboxEvent> batch, Set<Long> replayed) throws IOException, InterruptedException {
        Map<Long, ItemView> fresh;
        UnreadView counts;
        reads.acquire();
        try {
            fresh = itemViews(stream, batch, replayed);
            counts = counts(stream.userId());
        } finally {
            reads.release();
        }
        for (InboxEvent event : batch) {
            switch (event.type()) {
                case ITEM -> {
                    ItemView view = fresh.remove(event.itemId());
                    if (view != null) {
                        item(stream, view);
                    }
                }
                case DELETE -> stream.emitter().send(SseEmitter.event().name("delete").data(Ids.format(event.itemId())));
                case UNREAD, SOURCES -> { }
            }
        }
        unread(stream, counts);
    }

    void unread(HomeStream stream) throws IOException, InterruptedException {
        UnreadView counts;
        reads.acquire();
        try {
            counts = counts(stream.userId());
        } finally {
            reads.release();
        }
        unread(stream, counts);
    }

    private UnreadView counts(long userId) {
        return UnreadView.of(timeline.unreadByFolder(userId));
    }

    private static void unread(HomeStream stream, UnreadView counts) throws IOException {
        stream.emitter().send(SseEmitter.event().name("unread").data(counts, MediaType.APPLICATION_JSON));
    }

    void heartbeat(HomeStream stream) throws IOException {
        stream.emitter().send(SseEmitter.event().comment("heartbeat"));
    }

    private void item(HomeStream stream, ItemView view) throws IOException {
        stream.emitter().send(SseEmitter.event().name("item").id(view.id()).data(view, MediaType.APPLICATION_JSON));
    }

    /**
     * The views of the batch's new items, read together: tombstoned ones are left out, and so is
     * a pulled source's item the person's timeline does not hold (their subscription's media filter
     * does not take it, or it is older than their start). The read states that decide it are the
     * ones the views need anyway, so it costs no statement more.
     */
    private Map<Long, ItemView> itemViews(HomeStream stream, List<InboxEvent> batch, @Nullable Set<Long> replayed) {
        Set<Long> ids = new LinkedHashSet<>();
        Set<Long> bySource = new HashSet<>();
        for (InboxEvent event : batch) {
            if (event.type() == InboxEvent.Type.ITEM && stream.announcedBySource(event.itemId())) {
                bySource.add(event.itemId());
            }
            if (event.type() == InboxEvent.Type.ITEM && (replayed == null || !replayed.contains(event.itemId()))) {
                ids.add(event.itemId());
            }
        }
        Map<Long, ItemView> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        long userId = stream.userId();
        Map<Long, Boolean> states = timeline.readStates(userId, ids);
        List<Stored<Item>> shown = items.getAll(ids).stream()
                .filter(item -> !bySource.contains(item.id()) || states.containsKey(item.id())).toList();
        views.of(userId, shown, states).forEach(view -> found.put(Long.parseLong(view.id()), view));
        return found;
    }
}
