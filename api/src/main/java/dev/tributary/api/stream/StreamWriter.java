package dev.tributary.api.stream;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.timeline.UnreadView;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxEvent;
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
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Writes a stream's events: {@code item} (id: the item's id, data: its JSON, as in timelines),
 * {@code delete} (data: the id), {@code unread} (data: the counts) and heartbeat comments.
 * Announced items and the counts after them are read with other streams' ({@link StreamRenders});
 * a replay's reads take one of the node's {@link StreamSettings#concurrentReads()} permits. Writes
 * to the client happen after the reads: a slow client holds no permit and no batch.
 */
@Component
class StreamWriter {

    /** Entries per replay page; a replay stops at the timeline's window anyway. */
    private static final int REPLAY_PAGE = 100;
    /** Bounds a replay even if entries keep arriving while it reads. */
    private static final int MAX_REPLAY_PAGES = 20;

    private final HomeFeed timeline;
    private final ItemViews views;
    private final StreamRenders renders;

    private final Semaphore reads;

    StreamWriter(HomeFeed timeline, ItemViews views, StreamRenders renders, StreamSettings settings) {
        this.reads = new Semaphore(settings.concurrentReads());
        this.timeline = timeline;
        this.views = views;
        this.renders = renders;
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
        StreamRenders.Rendered rendered = render(stream, batch, replayed);
        Map<Long, ItemView> fresh = new HashMap<>(rendered.items());
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
        unread(stream, rendered.counts());
    }

    /** Sends the person's counts. */
    void unread(HomeStream stream) throws IOException, InterruptedException {
        unread(stream, renders.render(stream.userId(), Set.of(), Set.of()).counts());
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

    /** The views of the batch's new items and the counts after them, rendered with other streams' ({@link StreamRenders}). */
    private StreamRenders.Rendered render(HomeStream stream, List<InboxEvent> batch, Set<Long> replayed) throws InterruptedException {
        Set<Long> ids = new LinkedHashSet<>();
        Set<Long> bySource = new HashSet<>();
        for (InboxEvent event : batch) {
            if (event.type() == InboxEvent.Type.ITEM && stream.announcedBySource(event.itemId())) {
                bySource.add(event.itemId());
            }
            if (event.type() == InboxEvent.Type.ITEM && !replayed.contains(event.itemId())) {
                ids.add(event.itemId());
            }
        }
        return renders.render(stream.userId(), ids, bySource);
    }
}
