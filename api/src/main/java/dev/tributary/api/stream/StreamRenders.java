package dev.tributary.api.stream;

import dev.tributary.api.item.ItemJson;
import dev.tributary.api.item.SourceRef;
import dev.tributary.api.item.ItemViews;
import dev.tributary.api.timeline.KeptCounts;
import dev.tributary.api.timeline.UnreadView;
import dev.tributary.pubsub.HomeFeed;
import dev.tributary.pubsub.Item;
import dev.tributary.pubsub.Items;
import dev.tributary.pubsub.Stored;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders the items announced to this node's live streams, many streams at once. One item
 * announced to every open stream reaches every sender at about the same moment; rendered one
 * stream at a time it cost about six statements a stream, so 10,000 streams took the database
 * from every request beside them. Here the senders' requests queue, and each renderer takes as
 * many as are waiting (up to {@link #PEOPLE_PER_BATCH}) and reads them together: the items, their
 * sources, reactions and sharers once, each reader's read, starred and {@code also_in} with one
 * statement for all of them, and their counts in one Redis round trip (kept on the node for the
 * readers' next polls, {@link KeptCounts}). A sender waits for its own part, so each stream's order holds.
 */
@Component
class StreamRenders implements DisposableBean {

    /** Streams rendered together: bounds a batch's {@code IN} lists and how long its first stream waits for the last. */
    static final int PEOPLE_PER_BATCH = 500;
    /**
     * (person, item) pairs a batch's statements may cross: they name people and items in two
     * {@code IN} lists, which MariaDB plans as one range of the primary key per pair (EXPLAIN on
     * MariaDB 10.11: still so at 500 × 40; at 1,000 × 100 it turns the lists into a derived table
     * and another plan). Far below where the plan changes, and above one item for every stream of a batch.
     */
    static final int MAX_PAIRS = 2_000;
    /** Batches rendered at once on a node: at most this many pooled connections for all its streams. */
    static final int RENDERERS = 2;

    /**
     * What a stream sends for a batch of announcements: the JSON of its new items (by id), then
     * the JSON of the person's counts ({@link UnreadView}).
     */
    record Rendered(Map<Long, byte[]> items, byte[] counts) {
    }

    /** One stream's ask: these items for this person, those of {@code bySource} announced on a pulled source's channel. */
    record Request(long userId, Set<Long> itemIds, Set<Long> bySource, CompletableFuture<Rendered> views) {

        Request(long userId, Set<Long> itemIds, Set<Long> bySource) {
            this(userId, Set.copyOf(itemIds), Set.copyOf(bySource), new CompletableFuture<>());
        }
    }

    private final HomeFeed timeline;
    private final Items items;
    private final ItemViews views;
    private final JsonMapper json;
    private final KeptCounts keptCounts;
    /** At most one request per open stream (its sender waits for it), so bounded by the node's streams. */
    private final BlockingQueue<Request> pending = new LinkedBlockingQueue<>();
    private final ExecutorService renderers = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("stream-render-", 0).factory());
    /**
     * Wakes the senders of a rendered batch from a platform thread. A virtual thread woken by a
     * carrier goes to that carrier's own queue, which it empties before it takes anything else:
     * the 500 senders a renderer woke all ran before any request waiting in the scheduler's shared
     * queue. Woken from here they queue with the requests.
     */
    private final ExecutorService releases = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("stream-release").daemon(true).factory());
    private volatile boolean stopped;

    StreamRenders(HomeFeed timeline, Items items, ItemViews views, JsonMapper json, KeptCounts keptCounts) {
        this.timeline = timeline;
        this.keptCounts = keptCounts;
        this.items = items;
        this.views = views;
        this.json = json;
        for (int i = 0; i < RENDERERS; i++) {
            renderers.execute(this::render);
        }
    }

    /**
     * The views of these items for this person, keyed by item id, and their counts read after them:
     * tombstoned items are left out, and so is an item of {@code bySource} (announced on a pulled
     * source's channel) that the person's timeline does not hold (their subscription's media filter
     * does not take it, or it is older than their start). Waits for the batch it is rendered in.
     */
    Rendered render(long userId, Set<Long> itemIds, Set<Long> bySource) throws InterruptedException {
        Request request = new Request(userId, itemIds, bySource);
        if (stopped) {
            throw new IllegalStateException("live streams are stopping");
        }
        pending.add(request);
        if (stopped) {
            request.views().completeExceptionally(new IllegalStateException("live streams are stopping"));
        }
        try {
            return request.views().get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
    }

    private void render() {
        Request carried = null;
        try {
            while (!stopped) {
                List<Request> batch = new ArrayList<>();
                batch.add(carried != null ? carried : pending.take());
                carried = fill(batch);
                render(batch);
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }

    /** Adds waiting requests to the batch while it stays within its bounds; returns the first that did not fit. */
    private Request fill(List<Request> batch) {
        Set<Long> itemIds = new HashSet<>(batch.getFirst().itemIds());
        for (Request next; batch.size() < PEOPLE_PER_BATCH && (next = pending.poll()) != null; ) {
            Set<Long> union = new HashSet<>(itemIds);
            union.addAll(next.itemIds());
            if ((long) union.size() * (batch.size() + 1) > MAX_PAIRS) {
                return next;
            }
            itemIds = union;
            batch.add(next);
        }
        return null;
    }

    /**
     * Renders these requests together and completes each (all of them exceptionally if a read
     * fails). Each item's JSON is written once for the batch; a reader's read, starred and
     * {@code also_in} are put into it ({@link ItemJson}), not rendered again per stream.
     */
    void render(List<Request> batch) {
        try {
            Map<Long, Set<Long>> asked = new HashMap<>();
            batch.forEach(request -> asked.computeIfAbsent(request.userId(), user -> new LinkedHashSet<>()).addAll(request.itemIds()));
            Set<Long> all = new HashSet<>();
            asked.values().forEach(all::addAll);
            List<Stored<Item>> found = all.isEmpty() ? List.of() : items.getAll(all);
            Map<Long, Map<Long, Boolean>> states = timeline.readStates(asked);
            ItemViews.ForReaders forReaders = views.forReaders(asked.keySet(), found);
            Map<Long, ItemJson.Shared> shared = new HashMap<>();
            forReaders.shared().forEach((id, view) -> shared.put(id, ItemJson.of(view, json)));
            // The versions before the counts, so the node may keep the counts for the readers' polls,
            // and counts a poll kept under the same versions are not read again.
            Map<Long, String> versions = keptCounts.versions(asked.keySet());
            Map<Long, byte[]> countsJson = new HashMap<>(keptCounts.keptAt(versions));
            Set<Long> toRead = new HashSet<>(asked.keySet());
            toRead.removeAll(countsJson.keySet());
            Map<Long, HomeFeed.UnreadByFolder> counts = toRead.isEmpty() ? Map.of() : timeline.unreadByFolder(toRead);
            counts.forEach((person, read) -> {
                byte[] rendered = json.writeValueAsBytes(UnreadView.of(read));
                countsJson.put(person, rendered);
                keptCounts.keep(person, versions.get(person), rendered, read);
            });
            List<Rendered> rendered = new ArrayList<>(batch.size());
            for (Request request : batch) {
                rendered.add(new Rendered(theirs(request, shared, states, forReaders), countsJson.get(request.userId())));
            }
            release(batch, rendered);
        } catch (RuntimeException e) {
            batch.forEach(request -> request.views().completeExceptionally(e));
        }
    }

    private void release(List<Request> batch, List<Rendered> rendered) {
        Runnable wake = () -> {
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).views().complete(rendered.get(i));
            }
        };
        try {
            releases.execute(wake);
        } catch (RejectedExecutionException stopping) {
            wake.run();
        }
    }

    /**
     * The JSON of the request's items as its reader sees them: tombstoned items are left out, and
     * so is one announced by a pulled source that the reader's timeline does not hold.
     */
    private Map<Long, byte[]> theirs(Request request, Map<Long, ItemJson.Shared> shared, Map<Long, Map<Long, Boolean>> states,
            ItemViews.ForReaders forReaders) {
        long reader = request.userId();
        Map<Long, Boolean> theirStates = states.getOrDefault(reader, Map.of());
        Set<Long> starred = forReaders.starred().getOrDefault(reader, Set.of());
        Map<Long, List<SourceRef>> copies = forReaders.alsoIn().getOrDefault(reader, Map.of());
        Map<Long, byte[]> theirs = new HashMap<>();
        for (long id : request.itemIds()) {
            ItemJson.Shared item = shared.get(id);
            if (item == null || request.bySource().contains(id) && !theirStates.containsKey(id)) {
                continue;
            }
            byte[] base = theirStates.getOrDefault(id, false) ? item.read() : item.unread();
            List<SourceRef> alsoIn = copies.get(id);
            theirs.put(id, ItemJson.forReader(base, alsoIn == null ? null : json.writeValueAsBytes(alsoIn), starred.contains(id)));
        }
        return theirs;
    }

    @Override
    public void destroy() {
        stopped = true;
        renderers.shutdownNow();
        releases.shutdown();
        for (Request left; (left = pending.poll()) != null; ) {
            left.views().completeExceptionally(new IllegalStateException("live streams are stopping"));
        }
    }
}
