package dev.tributary.api.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The baseline: each subscriber holds {@code GET /api/v1/streaming/home} open (a virtual thread
 * and a socket each, in this process) and receives the post's {@code item} event once fan-out has
 * put it in their inbox.
 */
final class SseReceipts extends PushReceipts {

    private final List<Socket> sockets = new ArrayList<>();
    private final AtomicInteger open = new AtomicInteger();

    private SseReceipts(int subscribers) {
        super("sse", subscribers);
    }

    /** Opens one stream per token and returns once each is open (or failed). */
    static SseReceipts open(int port, List<String> tokens) throws InterruptedException {
        SseReceipts receipts = new SseReceipts(tokens.size());
        CountDownLatch opened = new CountDownLatch(tokens.size());
        for (int i = 0; i < tokens.size(); i++) {
            int index = i;
            Thread.ofVirtual().name("sse-" + i).start(() -> receipts.stream(port, index, tokens.get(index), opened));
        }
        if (!opened.await(120, TimeUnit.SECONDS) || receipts.open.get() < tokens.size()) {
            throw new IllegalStateException("only " + receipts.open.get() + " of " + tokens.size() + " streams opened");
        }
        return receipts;
    }

    private void stream(int port, int index, String token, CountDownLatch opened) {
        boolean counted = false;
        try (Socket socket = new Socket()) {
            synchronized (sockets) {
                sockets.add(socket);
            }
            socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/streaming/home HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nAccept: text/event-stream\r\nAuthorization: Bearer " + token + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader reader = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            String status = reader.readLine();
            if (status != null && status.startsWith("HTTP/1.1 200")) {
                open.incrementAndGet();
            }
            opened.countDown();
            counted = true;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (line.startsWith("data:")) {
                    received(index, line);
                }
            }
        } catch (IOException closed) {
            // the benchmark is over, or the stream failed to open
        } finally {
            if (!counted) {
                opened.countDown();
            }
        }
    }

    @Override
    public void close() {
        synchronized (sockets) {
            for (Socket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
    }
}
