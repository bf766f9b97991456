package dev.tributary.api.stream;

import dev.tributary.pubsub.InboxEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.listener.ChannelTopic;

/**
 * One open live stream: the listener of its person's Redis channel and the queue between it and
 * the stream's sender. Redis delivers on the listener container's threads, which must never wait
 * on a slow client, so messages are only queued here; a full queue ends the stream (the client
 * resumes with Last-Event-ID and loses nothing of its timeline).
 */
final class HomeStream implements MessageListener {

    /** Announcements a stream may have waiting; a client this far behind is better off resuming. */
    static final int QUEUE_CAPACITY = 1000;
    /** Announcements sent together (their items are read with one multi-get). */
    static final int BATCH = 100;

    private static final InboxEvent WAKE = new InboxEvent(InboxEvent.Type.UNREAD, Long.MIN_VALUE);

    private final long userId;
    private final String address;
    private final Set<String> revocationKeys;
    private final long serial;
    /** Where its events go, once the response is under way. */
    private volatile @Nullable StreamOutput output;
    private final ChannelTopic topic;
    private volatile List<ChannelTopic> topics;
    private final BlockingQueue<InboxEvent> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
    /**
     * Items announced on a pulled source's channel and not sent yet: sent only if the person's
     * timeline holds them (the subscription's media filter, its start), which the fan-out decided
     * for everything on the person's own channel. Bounded by the queue: cleared with it.
     */
    private final Set<Long> announcedBySource = ConcurrentHashMap.newKeySet();
    private final byte[] ownChannel;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean overflowed;

    HomeStream(long userId, String address, Set<String> revocationKeys, long serial, List<Long> pulledSources) {
        this.userId = userId;
        this.address = address;
        this.revocationKeys = Set.copyOf(revocationKeys);
        this.serial = serial;
        this.topic = new ChannelTopic(InboxEvent.channel(userId));
        this.ownChannel = topic.getTopic().getBytes(StandardCharsets.UTF_8);
        this.topics = topicsFor(pulledSources);
    }

    /** The person's channel and those of the pulled sources they follow (as last read). */
    List<ChannelTopic> topics() {
        return topics;
    }

    /** The channels for these pulled sources besides the person's own. */
    List<ChannelTopic> topicsFor(List<Long> pulledSources) {
        List<ChannelTopic> all = new ArrayList<>(List.of(topic));
        pulledSources.forEach(source -> all.add(new ChannelTopic(InboxEvent.sourceChannel(source))));
        return List.copyOf(all);
    }

    void listensTo(List<ChannelTopic> topics) {
        this.topics = List.copyOf(topics);
    }

    long userId() {
        return userId;
    }

    /** The client address that opened it. */
    String address() {
        return address;
    }

    /** Whether announcing {@code key} revoked the credential this stream was opened with. */
    boolean openedWith(String key) {
        return revocationKeys.contains(key);
    }

    /** Opening order on this node: the lowest of a person's streams is their oldest. */
    long serial() {
        return serial;
    }

    /** Gives the stream its output; one closed meanwhile ends it at once. */
    void attach(StreamOutput output) {
        this.output = output;
        if (closed()) {
            output.end();
        }
    }

    /** Writes events to the client; fails once the stream is closed or the client gone. */
    void write(byte[] events) throws IOException {
        StreamOutput out = output;
        if (out == null || closed()) {
            throw new IOException("the live stream is closed");
        }
        out.write(events);
    }

    ChannelTopic topic() {
        return topic;
    }

    boolean closed() {
        return closed.get();
    }

    /** Marks the stream closed and wakes its sender; true only for the first caller. */
    boolean close() {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        queue.clear();
        announcedBySource.clear();
        queue.offer(WAKE);
        StreamOutput out = output;
        if (out != null) {
            out.end();
        }
        return true;
    }

    @Override
    public void onMessage(Message message, byte @Nullable [] pattern) {
        InboxEvent event = InboxEvent.decode(new String(message.getBody(), StandardCharsets.UTF_8));
        if (event == null || closed()) {
            return;
        }
        if (event.type() == InboxEvent.Type.ITEM && !Arrays.equals(message.getChannel(), ownChannel)) {
            announcedBySource.add(event.itemId());
        }
        if (!queue.offer(event)) {
            overflowed = true;
            queue.clear();
            announcedBySource.clear();
            queue.offer(WAKE);
        }
    }

    /** Whether the item was announced on a pulled source's channel (and not on the person's own); forgets it. */
    boolean announcedBySource(long itemId) {
        return announcedBySource.remove(itemId);
    }

    /**
     * The next announcements, waiting up to {@code idle} for the first: empty when none came
     * (time for a heartbeat), null once the stream is closed or fell too far behind.
     */
    @Nullable List<InboxEvent> next(Duration idle) throws InterruptedException {
        InboxEvent first = queue.poll(idle.toNanos(), TimeUnit.NANOSECONDS);
        if (closed() || overflowed) {
            return null;
        }
        if (first == null) {
            return List.of();
        }
        List<InboxEvent> batch = new ArrayList<>();
        batch.add(first);
        queue.drainTo(batch, BATCH - 1);
        batch.removeIf(event -> event == WAKE);
        return closed() || overflowed ? null : batch;
    }
}
