package dev.tributary.api.stream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * A test's Server-Sent Events client over the JDK HttpClient: lines are read on their own thread
 * and parsed into events, which the test awaits with a deadline. Closing drops the connection
 * the way a client that goes away does.
 */
final class SseConnection implements AutoCloseable {

    /** One event; a comment line (a heartbeat) is an event named {@code :comment}. */
    record Event(@Nullable String name, @Nullable String id, String data) {
    }

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final Event END = new Event(null, null, "end of stream");

    private final HttpClient client;
    private final int status;
    private final HttpClient.Version version;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final List<Event> seen = new ArrayList<>();

    private SseConnection(HttpClient client, HttpResponse<Stream<String>> response) {
        this.client = client;
        this.status = response.statusCode();
        this.version = response.version();
        Thread.ofVirtual().name("sse-test-reader").start(() -> read(response.body()));
    }

    static SseConnection open(String url, String token, @Nullable String lastEventId) {
        return openWith(url, lastEventId, "Authorization", "Bearer " + token);
    }

    /** A stream over {@code version} (HTTP/2 goes over cleartext by an upgrade of the first request). */
    static SseConnection open(String url, String token, @Nullable String lastEventId, HttpClient.Version version) {
        return openWith(url, lastEventId, version, "Authorization", "Bearer " + token);
    }

    /** A stream requested with {@code headers} (name, value pairs), e.g. a browser's session cookie. */
    static SseConnection openWith(String url, @Nullable String lastEventId, String... headers) {
        return openWith(url, lastEventId, HttpClient.Version.HTTP_1_1, headers);
    }

    private static SseConnection openWith(String url, @Nullable String lastEventId, HttpClient.Version version, String... headers) {
        HttpClient client = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/event-stream")
                .headers(headers).GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        try {
            return new SseConnection(client, client.send(request.build(), HttpResponse.BodyHandlers.ofLines()));
        } catch (IOException e) {
            client.shutdownNow();
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    int status() {
        return status;
    }

    HttpClient.Version version() {
        return version;
    }

    /** The next event matching {@code wanted}, skipping others; fails past the deadline or at the end of the stream. */
    Event await(Predicate<Event> wanted) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            Event event = poll(deadline);
            if (event == END) {
                throw new AssertionError("stream ended; seen " + seen);
            }
            seen.add(event);
            if (wanted.test(event)) {
                return event;
            }
        }
    }

    Event awaitNamed(String name) {
        return await(event -> name.equals(event.name()));
    }

    /** The next event of any kind but comments. */
    Event next() {
        return await(event -> !":comment".equals(event.name()));
    }

    /** Waits until the server ends the stream. */
    void awaitEnd() {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (poll(deadline) != END) {
            // skip what was still on its way
        }
    }

    private Event poll(long deadline) {
        try {
            Event event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (event == null) {
                throw new AssertionError("no such event within " + DEADLINE + "; seen " + seen);
            }
            return event;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void read(Stream<String> lines) {
        String name = null;
        String id = null;
        StringBuilder data = new StringBuilder();
        try (lines) {
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.isEmpty()) {
                    if (name != null || !data.isEmpty()) {
                        events.add(new Event(name, id, data.toString()));
                    }
                    name = null;
                    id = null;
                    data.setLength(0);
                } else if (line.startsWith(":")) {
                    events.add(new Event(":comment", null, line.substring(1)));
                } else if (line.startsWith("event:")) {
                    name = value(line);
                } else if (line.startsWith("id:")) {
                    id = value(line);
                } else if (line.startsWith("data:")) {
                    data.append(data.isEmpty() ? "" : "\n").append(value(line));
                }
            }
        } catch (RuntimeException closed) {
            // the connection was dropped
        } finally {
            events.add(END);
        }
    }

    private static String value(String line) {
        String value = line.substring(line.indexOf(':') + 1);
        return value.startsWith(" ") ? value.substring(1) : value;
    }

    @Override
    public void close() {
        client.shutdownNow();
    }
}
