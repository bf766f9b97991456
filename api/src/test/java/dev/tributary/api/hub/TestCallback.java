package dev.tributary.api.hub;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A WebSub subscriber's callback for tests, on 127.0.0.1: by its path's first segment it echoes
 * the challenge ({@code /echo/...}), echoes a wrong one ({@code /wrong/...}), hangs until closed
 * ({@code /hang/...}) or answers POSTs 410 ({@code /gone/...}); it records every verification
 * and delivery.
 */
final class TestCallback implements AutoCloseable {

    /** A verification GET (its query) or a delivery POST (headers, body) to {@code path}. */
    record Call(String method, String path, Map<String, String> query, Map<String, List<String>> headers, byte[] body) {

        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).findFirst()
                    .map(e -> String.join(", ", e.getValue())).orElse(null);
        }
    }

    private final HttpServer server;
    private final List<Call> verifications = new CopyOnWriteArrayList<>();
    private final Map<String, BlockingQueue<Call>> deliveries = new ConcurrentHashMap<>();
    private final CountDownLatch release = new CountDownLatch(1);

    private TestCallback(HttpServer server) {
        this.server = server;
    }

    static TestCallback start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            TestCallback callback = new TestCallback(server);
            server.createContext("/", callback::handle);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            return callback;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    List<Call> verifications(String path) {
        return verifications.stream().filter(c -> c.path().equals(path)).toList();
    }

    /** The deliveries to {@code path}, in order (a queue to take them from as they come). */
    BlockingQueue<Call> deliveries(String path) {
        return deliveries.computeIfAbsent(path, p -> new LinkedBlockingQueue<>());
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            URI uri = exchange.getRequestURI();
            String path = uri.getPath();
            Map<String, String> query = query(uri.getRawQuery());
            byte[] body = exchange.getRequestBody().readAllBytes();
            Call call = new Call(exchange.getRequestMethod(), path, query, Map.copyOf(exchange.getRequestHeaders()), body);
            String kind = path.split("/")[1];
            if (call.method().equals("GET")) {
                verifications.add(call);
                switch (kind) {
                    case "hang" -> {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        answer(exchange, 200, "too late");
                    }
                    case "wrong" -> answer(exchange, 200, "not-the-challenge");
                    default -> answer(exchange, 200, query.getOrDefault("hub.challenge", ""));
                }
                return;
            }
            deliveries(path).add(call);
            answer(exchange, kind.equals("gone") ? 410 : 202, "");
        }
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw == null) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            params.put(name, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return params;
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}
