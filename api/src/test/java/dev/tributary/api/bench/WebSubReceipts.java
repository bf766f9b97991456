package dev.tributary.api.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * WebSub subscribers: callback servers on {@code hosts} loopback addresses (127.0.0.2, .3, …, so
 * the hub's per-host limit applies as it would to subscribers on that many hosts), each
 * subscriber its own callback path; each subscribes at the hub to the author's Atom export,
 * echoes the challenge, and records the content pushed to it.
 */
final class WebSubReceipts extends PushReceipts {

    private final List<HttpServer> servers = new ArrayList<>();

    private WebSubReceipts(int subscribers) {
        super("websub", subscribers);
    }

    /** Starts the callbacks and asks the hub for every subscription; the caller waits for them to be verified. */
    static WebSubReceipts subscribe(int port, String topic, int subscribers, int hosts) throws Exception {
        WebSubReceipts receipts = new WebSubReceipts(subscribers);
        List<String> roots = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0." + (2 + h), 0), 1024);
            server.createContext("/cb/", receipts::handle);
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
            receipts.servers.add(server);
            roots.add("http://127.0.0." + (2 + h) + ":" + server.getAddress().getPort());
        }
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < subscribers; i++) {
            String form = "hub.mode=subscribe&hub.topic=" + URLEncoder.encode(topic, StandardCharsets.UTF_8)
                    + "&hub.callback=" + URLEncoder.encode(roots.get(i % hosts) + "/cb/" + i, StandardCharsets.UTF_8)
                    + "&hub.secret=bench-secret-" + i;
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/websub/hub"))
                    .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 202) {
                throw new IllegalStateException("the hub refused subscription " + i + ": " + answer.statusCode() + " " + answer.body());
            }
        }
        return receipts;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            int index = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
            if (exchange.getRequestMethod().equals("GET")) {
                String challenge = challenge(exchange.getRequestURI().getRawQuery());
                byte[] body = challenge.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            String content = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received(index, content);
            exchange.sendResponseHeaders(202, -1);
        }
    }

    private static String challenge(String query) {
        for (String pair : query == null ? new String[0] : query.split("&")) {
            if (pair.startsWith("hub.challenge=")) {
                return URLDecoder.decode(pair.substring("hub.challenge=".length()), StandardCharsets.UTF_8);
            }
        }
        return "";
    }

    @Override
    public void close() {
        servers.forEach(server -> server.stop(0));
    }
}
