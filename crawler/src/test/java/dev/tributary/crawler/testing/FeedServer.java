package dev.tributary.crawler.testing;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A web server on 127.0.0.1 for crawler tests: serves feeds (honouring conditional requests with
 * an ETag derived from the body), fixed responses and redirects, and records every request it
 * gets so tests can assert what was (and was not) fetched.
 */
public final class FeedServer implements AutoCloseable {

    /** A request as the server saw it. */
    public record Request(String method, String path, Headers headers, byte[] body) {

        public String header(String name) {
            return headers.getFirst(name);
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private sealed interface Route {
    }

    private record Feed(byte[] body, String contentType, String etag, Map<String, String> headers) implements Route {
    }

    private record Fixed(int status, Map<String, String> headers, byte[] body) implements Route {
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, Route> routes = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private volatile long latencyNanos;

    private FeedServer(HttpServer server) {
        this.server = server;
    }

    public static FeedServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            FeedServer feeds = new FeedServer(server);
            server.createContext("/", feeds::handle);
            server.setExecutor(feeds.executor);
            server.start();
            return feeds;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the feed server", e);
        }
    }

    public URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Serves {@code body} at {@code path}, with an ETag and 304 to a matching If-None-Match. */
    public FeedServer feed(String path, String body) {
        return feed(path, body, "application/rss+xml; charset=utf-8", Map.of());
    }

    public FeedServer feed(String path, String body, String contentType, Map<String, String> headers) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        routes.put(path, new Feed(bytes, contentType, "\"" + sha256(bytes).substring(0, 16) + "\"", headers));
        return this;
    }

    public FeedServer respond(String path, int status, Map<String, String> headers, String body) {
        routes.put(path, new Fixed(status, headers, body.getBytes(StandardCharsets.UTF_8)));
        return this;
    }

    public FeedServer redirect(String path, int status, String location) {
        return respond(path, status, Map.of("Location", location), "");
    }

    /** Answers every request after {@code latency}, like a distant server. */
    public FeedServer latency(java.time.Duration latency) {
        this.latencyNanos = latency.toNanos();
        return this;
    }

    /** Requests received for {@code path}, oldest first. */
    public List<Request> requests(String path) {
        return requests.stream().filter(request -> request.path().equals(path)).toList();
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            String path = exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
            requests.add(new Request(exchange.getRequestMethod(), path, exchange.getRequestHeaders(), in.readAllBytes()));
            if (latencyNanos > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(latencyNanos);
            }
            Route route = routes.getOrDefault(path, routes.get(exchange.getRequestURI().getRawPath()));
            switch (route) {
                case null -> send(exchange, 404, Map.of(), "not found".getBytes(StandardCharsets.UTF_8));
                case Feed feed -> serve(exchange, feed);
                case Fixed fixed -> send(exchange, fixed.status(), fixed.headers(), fixed.body());
            }
        }
    }

    private void serve(HttpExchange exchange, Feed feed) throws IOException {
        exchange.getResponseHeaders().set("ETag", feed.etag());
        if (feed.etag().equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
            feed.headers().forEach(exchange.getResponseHeaders()::set);
            exchange.sendResponseHeaders(304, -1);
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", feed.contentType());
        send(exchange, 200, feed.headers(), feed.body());
    }

    private static void send(HttpExchange exchange, int status, Map<String, String> headers, byte[] body)
            throws IOException {
        headers.forEach(exchange.getResponseHeaders()::set);
        boolean empty = body.length == 0 || status == 204 || status == 304;
        exchange.sendResponseHeaders(status, empty ? -1 : body.length);
        if (!empty) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
