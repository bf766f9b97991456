package dev.tributary.crawler.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.tributary.crawler.websub.HubSignature;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * A small WebSub hub on 127.0.0.1 for tests: takes subscription requests (202), verifies each
 * subscriber's intent by calling its callback with a challenge, and distributes content to
 * verified subscribers signed with their secret ({@code X-Hub-Signature: sha256=...}).
 */
public final class TestHub implements AutoCloseable {

    /** A subscription the hub has verified. */
    public record Subscriber(URI callback, String topic, String secret, long leaseSeconds) {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Subscriber> verified = new CopyOnWriteArrayList<>();
    private final List<String> refusedVerifications = new CopyOnWriteArrayList<>();

    private TestHub(HttpServer server) {
        this.server = server;
    }

    public static TestHub start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            TestHub hub = new TestHub(server);
            server.createContext("/hub", hub::handle);
            server.setExecutor(hub.executor);
            server.start();
            return hub;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the test hub", e);
        }
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hub");
    }

    public List<Subscriber> verified() {
        return List.copyOf(verified);
    }

    /** Callbacks that did not echo the challenge. */
    public List<String> refusedVerifications() {
        return List.copyOf(refusedVerifications);
    }

    /** Pushes {@code body} to every verified subscriber of {@code topic}; returns their HTTP statuses. */
    public List<Integer> publish(String topic, byte[] body, String contentType) {
        return verified.stream().filter(s -> s.topic().equals(topic))
                .map(s -> post(s.callback(), body, contentType, HubSignature.header("sha256", body, s.secret())))
                .toList();
    }

    /** Pushes {@code body} with a signature of the caller's choosing (forgeries). */
    public int post(URI callback, byte[] body, String contentType, String signature) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(callback).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body));
            if (signature != null) {
                request.header("X-Hub-Signature", signature);
            }
            return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            if (!"POST".equals(exchange.getRequestMethod()) || !"subscribe".equals(form.get("hub.mode"))
                    || form.get("hub.callback") == null || form.get("hub.topic") == null) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            exchange.sendResponseHeaders(202, -1);
            // Verification of intent happens after the hub has answered, as real hubs do.
            executor.execute(() -> verify(form));
        }
    }

    private void verify(Map<String, String> form) {
        String challenge = UUID.randomUUID().toString();
        long lease = Long.parseLong(form.getOrDefault("hub.lease_seconds", "86400"));
        URI callback = URI.create(form.get("hub.callback") + "?hub.mode=subscribe&hub.topic="
                + URLEncoder.encode(form.get("hub.topic"), StandardCharsets.UTF_8) + "&hub.challenge=" + challenge
                + "&hub.lease_seconds=" + lease);
        try {
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(callback).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() == 200 && answer.body().equals(challenge)) {
                verified.add(new Subscriber(URI.create(form.get("hub.callback")), form.get("hub.topic"),
                        form.get("hub.secret"), lease));
            } else {
                refusedVerifications.add(form.get("hub.callback") + " answered " + answer.statusCode());
            }
        } catch (IOException e) {
            refusedVerifications.add(form.get("hub.callback") + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, String> form(String body) {
        if (body.isEmpty()) {
            return Map.of();
        }
        return Arrays.stream(body.split("&")).map(pair -> pair.split("=", 2)).collect(Collectors.toMap(
                pair -> URLDecoder.decode(pair[0], StandardCharsets.UTF_8),
                pair -> URLDecoder.decode(pair.length > 1 ? pair[1] : "", StandardCharsets.UTF_8), (a, b) -> b));
    }
}
