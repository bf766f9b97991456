package dev.tributary.api.stream;

import dev.tributary.api.item.ItemView;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.web.Ids;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.InboxEvent;
import dev.tributary.pubsub.TimelineEntry;
import dev.tributary.pubsub.TimelineQuery;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

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

    private static final byte[] DATA = "data:".getBytes(StandardCharsets.UTF_8);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEARTBEAT = ":heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

    private final Semaphore reads;
    private final JsonMapper json;

    StreamWriter(HomeFeed timeline, ItemViews views, StreamRenders renders, StreamSettings settings, JsonMapper json) {
        this.reads = new Semaphore(settings.concurrentReads());
        this.json = json;
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
            ByteArrayOutputStream frames = new ByteArrayOutputStream(1024 + rendered.size() * 2048);
            for (ItemView view : rendered) {
                frame(frames, "item", view.id(), json.writeValueAsBytes(view));
            }
            if (frames.size() > 0) {
                write(stream, frames);
            }
            entries.forEach(entry -> sent.add(entry.id()));
            if (entries.size() < REPLAY_PAGE) {
                break;
            }
            after = entries.getLast().id();
        }
        return sent;
    }

    /**
     * Sends a batch of announcements in order, then the unread counts they changed (once), as one
     * write: the items' JSON comes rendered ({@link StreamRenders}), framed here as Spring's
     * {@code SseEmitter.event()} frames it.
     */
    void send(HomeStream stream, List<InboxEvent> batch, Set<Long> replayed) throws IOException, InterruptedException {
        StreamRenders.Rendered rendered = render(stream, batch, replayed);
        Map<Long, byte[]> fresh = new HashMap<>(rendered.items());
        ByteArrayOutputStream frames = new ByteArrayOutputStream(1024 + fresh.size() * 2048);
        for (InboxEvent event : batch) {
            switch (event.type()) {
                case ITEM -> {
                    byte[] item = fresh.remove(event.itemId());
                    if (item != null) {
                        frame(frames, "item", Ids.format(event.itemId()), item);
                    }
                }
                case DELETE -> frame(frames, "delete", null, Ids.format(event.itemId()).getBytes(StandardCharsets.UTF_8));
                case UNREAD, SOURCES -> { }
            }
        }
        frame(frames, "unread", null, rendered.counts());
        write(stream, frames);
    }

    /** Sends the person's counts. */
    void unread(HomeStream stream) throws IOException, InterruptedException {
        ByteArrayOutputStream frames = new ByteArrayOutputStream(1024);
        frame(frames, "unread", null, renders.render(stream.userId(), Set.of(), Set.of()).counts());
        write(stream, frames);
    }

    /** One event: its name, its id if any, and its data on one line (JSON and ids hold no line breaks). */
    private static void frame(ByteArrayOutputStream frames, String name, @Nullable String id, byte[] data) {
        frames.writeBytes(("event:" + name + "\n").getBytes(StandardCharsets.UTF_8));
        if (id != null) {
            frames.writeBytes(("id:" + id + "\n").getBytes(StandardCharsets.UTF_8));
        }
        frames.writeBytes(DATA);
        frames.writeBytes(data);
        frames.writeBytes(END);
    }

    private static void write(HomeStream stream, ByteArrayOutputStream frames) throws IOException {
        stream.write(frames.toByteArray());
    }

    void heartbeat(HomeStream stream) throws IOException {
        stream.write(HEARTBEAT);
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
