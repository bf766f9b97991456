package dev.tributary.crawler.fetch;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** A JDK HTTP server on 127.0.0.1 and a free port that records every request it answers. */
final class TestHttpServer implements AutoCloseable {

    /** One request as the server saw it. */
    record Seen(String method, String path, Headers headers, int remotePort) {
        String header(String name) {
            return headers.getFirst(name);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
    private final String scheme;

    private TestHttpServer(HttpServer server, String scheme) {
        this.server = server;
        this.scheme = scheme;
        server.setExecutor(executor);
        server.start();
    }

    static TestHttpServer start() {
        try {
            return new TestHttpServer(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64), "http");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** HTTPS with a self-signed certificate no default trust store accepts. */
    static TestHttpServer startTlsSelfSigned() {
        try (InputStream in = TestHttpServer.class.getResourceAsStream("/fetch/self-signed.p12")) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, "changeit".toCharArray());
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, "changeit".toCharArray());
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(keys.getKeyManagers(), null, null);
            HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
            server.setHttpsConfigurator(new HttpsConfigurator(tls));
            return new TestHttpServer(server, "https");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    TestHttpServer on(String path, HttpHandler handler) {
        server.createContext(path, exchange -> {
            seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().toString(), exchange.getRequestHeaders(),
                    exchange.getRemoteAddress().getPort()));
            try (exchange) {
                handler.handle(exchange);
            }
        });
        return this;
    }

    /** Answers {@code path} with a status, headers and body. */
    TestHttpServer reply(String path, int status, Map<String, String> headers, byte[] body) {
        return on(path, exchange -> send(exchange, status, headers, body));
    }

    TestHttpServer redirect(String path, int status, String location) {
        return reply(path, status, Map.of("Location", location), new byte[0]);
    }

    static void send(HttpExchange exchange, int status, Map<String, String> headers, byte[] body) throws IOException {
        headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        boolean noBody = status == 304 || status == 204 || body.length == 0;
        exchange.sendResponseHeaders(status, noBody ? -1 : body.length);
        if (!noBody) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    URI url(String path) {
        return URI.create(scheme + "://127.0.0.1:" + port() + path);
    }

    int port() {
        return server.getAddress().getPort();
    }

    List<Seen> seen() {
        return List.copyOf(seen);
    }

    Seen last() {
        List<Seen> all = seen();
        if (all.isEmpty()) {
            throw new AssertionError("the server saw no request");
        }
        return all.getLast();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
