package dev.tributary.api.bench;

import dev.tributary.pubsub.MediaType;
import dev.tributary.pubsub.Publisher;
import dev.tributary.pubsub.Sources;
import dev.tributary.pubsub.Subscriptions;
import dev.tributary.pubsub.bench.Bench;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The HTTP benchmark's idle live streams and the steady fan-out that feeds them: the first
 * {@code count} people follow one feed, a {@link StreamHolders} process on the same machine holds
 * a stream open for each, and a publisher posts one item to that feed every {@code 1 / rate}
 * seconds, which fan-out delivers to all of them and their streams announce. Measures the heap
 * the open streams hold (live heap after full collections, before and after opening).
 */
final class OpenStreams implements AutoCloseable {

    /** What opening cost: streams open and refused, and live heap bytes per open stream. */
    record Opened(int open, int failed, double heapBytesPerStream, double seconds) {}

    private final ConfigurableApplicationContext context;
    private final Process holders;
    private final AtomicLong eventsSeen;
    private final AtomicLong published = new AtomicLong();
    private final Thread publisher;
    private volatile boolean stopping;
    private final Opened opened;

    private OpenStreams(ConfigurableApplicationContext context, Process holders, AtomicLong eventsSeen, Opened opened,
            long sourceId, double rate) {
        this.context = context;
        this.eventsSeen = eventsSeen;
        this.holders = holders;
        this.opened = opened;
        this.publisher = Thread.ofPlatform().name("stream-feed").daemon().start(() -> publish(sourceId, rate));
    }

    /** Subscribes the people to a feed, opens their streams in a child process and starts the feed. */
    static OpenStreams open(ConfigurableApplicationContext context, int port, long[] people, List<String> tokens,
            int count, double rate, Duration lifetime) {
        int n = Math.min(count, people.length);
        long sourceId = context.getBean(Sources.class).feed("https://bench.tributary.test/streams").id();
        subscribe(context.getBean(Subscriptions.class), sourceId, people, n);
        long heapBefore = JvmCounters.liveHeapBytes();
        long started = System.nanoTime();
        Process process = start(port, tokens.subList(0, n), lifetime);
        AtomicLong events = new AtomicLong();
        String line = awaitOpened(process, events, Duration.ofMinutes(5));
        String[] words = line.split(" ");
        int open = Integer.parseInt(words[1]);
        int failed = Integer.parseInt(words[3]);
        double seconds = (System.nanoTime() - started) / 1e9;
        long heapAfter = JvmCounters.liveHeapBytes();
        Opened opened = new Opened(open, failed, open == 0 ? Double.NaN : (double) (heapAfter - heapBefore) / open, seconds);
        return new OpenStreams(context, process, events, opened, sourceId, rate);
    }

    Opened opened() {
        return opened;
    }

    /** Events the holders have counted so far, and items the feed has published. */
    String progress() {
        return Bench.format("%,d items published to the streams' feed, %,d item events received", published.get(),
                eventsSeen.get());
    }

    private static void subscribe(Subscriptions subscriptions, long sourceId, long[] people, int n) {
        AtomicInteger next = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                        subscriptions.subscribe(people[i], sourceId, Set.of(MediaType.values()));
                    }
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        Bench.join(threads, Duration.ofMinutes(10));
        if (!failures.isEmpty()) {
            throw new IllegalStateException("subscribing the stream holders failed", failures.getFirst());
        }
    }

    private static Process start(int port, List<String> tokens, Duration lifetime) {
        try {
            Path file = Files.createTempFile("tributary-stream-tokens", ".txt");
            file.toFile().deleteOnExit();
            Files.write(file, tokens);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            return new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                    StreamHolders.class.getName(), Integer.toString(port), file.toString(), Integer.toString(tokens.size()),
                    Long.toString(lifetime.toSeconds()))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Follows the holders' output on a thread of its own: returns their "opened" line (failing past
     * the deadline), then keeps {@code events} at their latest count.
     */
    private static String awaitOpened(Process process, AtomicLong events, Duration deadline) {
        var reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        var found = new java.util.concurrent.CompletableFuture<String>();
        Thread.ofPlatform().name("stream-holders-out").daemon().start(() -> {
            try {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.startsWith("opened ")) {
                        found.complete(line);
                    } else if (line.startsWith("events ")) {
                        events.set(Long.parseLong(line.split(" ")[1]));
                    }
                }
                found.completeExceptionally(new IllegalStateException("the stream holders ended before opening"));
            } catch (IOException e) {
                found.completeExceptionally(e);
            }
        });
        try {
            return found.get(deadline.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("the stream holders did not open their streams in " + deadline, e);
        }
    }

    private void publish(long sourceId, double rate) {
        if (rate <= 0) {
            return;
        }
        Publisher feed = context.getBean(Publisher.class);
        Random random = new Random(7);
        long periodNanos = (long) (1e9 / rate);
        long next = System.nanoTime();
        while (!stopping) {
            feed.publish(sourceId, List.of(Bench.entry(random, "stream-" + published.get(), Instant.now())));
            published.incrementAndGet();
            next += periodNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Bench.park(TimeUnit.NANOSECONDS.toMillis(wait)); // the feed's pace, not a synchronisation
            }
        }
    }

    @Override
    public void close() {
        stopping = true;
        try {
            holders.getOutputStream().close();
            if (!holders.waitFor(30, TimeUnit.SECONDS)) {
                holders.destroyForcibly();
            }
            publisher.join(Duration.ofSeconds(30));
        } catch (IOException e) {
            holders.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            holders.destroyForcibly();
        }
    }
}
