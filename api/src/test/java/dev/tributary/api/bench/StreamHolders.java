package dev.tributary.api.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The other half of the HTTP benchmark's open streams, run as its own process on the same
 * machine (so its sockets do not count against the server's file limit): opens one
 * {@code GET /api/v1/streaming/home} per token, holds it, and counts the events that arrive.
 * Prints {@code opened N failed M} once every stream is open or has failed, then
 * {@code events E open N} every second; ends when its standard input closes (the benchmark
 * ends it) or after {@code seconds}.
 *
 * <p>Arguments: {@code port tokens-file count seconds}.
 */
public final class StreamHolders {

    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final int OPENING_AT_ONCE = 200;

    private final AtomicLong events = new AtomicLong();
    private final AtomicLong open = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        List<String> tokens = Files.readAllLines(Path.of(args[1]));
        int count = Math.min(Integer.parseInt(args[2]), tokens.size());
        long deadline = System.nanoTime() + Long.parseLong(args[3]) * 1_000_000_000L;
        new StreamHolders().hold(new InetSocketAddress("127.0.0.1", port), tokens.subList(0, count), deadline);
        System.exit(0);
    }

    private void hold(InetSocketAddress server, List<String> tokens, long deadline) throws InterruptedException {
        Thread.ofPlatform().daemon().start(StreamHolders::exitWhenStdinCloses);
        var opening = new java.util.concurrent.Semaphore(OPENING_AT_ONCE);
        List<Thread> threads = new ArrayList<>(tokens.size());
        for (String token : tokens) {
            opening.acquire();
            threads.add(Thread.ofVirtual().start(() -> stream(server, token, opening)));
        }
        opening.acquire(OPENING_AT_ONCE);
        System.out.println("opened " + open.get() + " failed " + failed.get());
        while (System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000_000L); // a reporting period, not a synchronisation
            System.out.println("events " + events.get() + " open " + open.get());
        }
    }

    private void stream(InetSocketAddress server, String token, java.util.concurrent.Semaphore opening) {
        boolean released = false;
        try (Socket socket = new Socket()) {
            socket.connect(server, CONNECT_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/streaming/home HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort()
                    + "\r\nAccept: text/event-stream\r\nAuthorization: Bearer " + token + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 2048);
            String status = reader.readLine();
            if (status == null || !status.startsWith("HTTP/1.1 200")) {
                failed.incrementAndGet();
                return;
            }
            open.incrementAndGet();
            opening.release();
            released = true;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                // Spring writes "event:item"; the SSE grammar allows a space after the colon too.
                if (line.startsWith("event:") && line.substring(6).strip().equals("item")) {
                    events.incrementAndGet();
                }
            }
            open.decrementAndGet();
        } catch (IOException e) {
            failed.incrementAndGet();
        } finally {
            if (!released) {
                opening.release();
            }
        }
    }

    private static void exitWhenStdinCloses() {
        try {
            while (System.in.read() >= 0) {
                // the benchmark writes nothing; end of input means it is done
            }
        } catch (IOException ignored) {
            // the same: the parent is gone
        }
        System.exit(0);
    }
}
