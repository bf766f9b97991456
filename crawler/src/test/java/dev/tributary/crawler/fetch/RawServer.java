package dev.tributary.crawler.fetch;

import dev.tributary.storage.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bare TCP server for responses no HTTP server library would send: garbage, slow drips, lying
 * lengths. Counts the connections it accepts and the bytes it receives.
 */
final class RawServer implements AutoCloseable {

    /** What the server does with one accepted connection. */
    @FunctionalInterface
    interface Behaviour {
        void serve(Socket socket) throws Exception;
    }

    private final ServerSocket listener;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final ConcurrentLinkedQueue<Socket> sockets = new ConcurrentLinkedQueue<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final Set<Integer> probePorts = ConcurrentHashMap.newKeySet();
    private final Set<Integer> acceptedProbes = ConcurrentHashMap.newKeySet();
    private final AtomicInteger finished = new AtomicInteger();
    private final AtomicLong bytesReceived = new AtomicLong();
    private final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();

    private RawServer(InetAddress address, Behaviour behaviour) throws IOException {
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(address, 0), 64);
        executor.submit(() -> acceptLoop(behaviour));
    }

    static RawServer start(Behaviour behaviour) {
        return start(InetAddress.getLoopbackAddress(), behaviour);
    }

    static RawServer start(InetAddress address, Behaviour behaviour) {
        try {
            return new RawServer(address, behaviour);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A server that answers nothing and only counts what reaches it. */
    static RawServer counting() {
        return start(socket -> { });
    }

    static RawServer counting(InetAddress address) {
        return start(address, socket -> { });
    }

    private void acceptLoop(Behaviour behaviour) {
        while (!listener.isClosed()) {
            try {
                Socket socket = listener.accept();
                if (probePorts.contains(socket.getPort())) {
                    acceptedProbes.add(socket.getPort());
                    socket.close();
                    continue;
                }
                sockets.add(socket);
                connections.incrementAndGet();
                executor.submit(() -> {
                    try (socket) {
                        behaviour.serve(socket);
                        drain(socket);
                    } catch (Throwable e) {
                        errors.add(e);
                    } finally {
                        finished.incrementAndGet();
                    }
                });
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** Reads the request head, up to the blank line, counting its bytes. */
    String readRequestHead(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            bytesReceived.incrementAndGet();
            head.append((char) b);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        return head.toString();
    }

    /** Reads until the client closes, counting bytes: the test sees whatever the client sent. */
    private void drain(Socket socket) {
        try {
            socket.setSoTimeout(10_000);
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                bytesReceived.addAndGet(n);
            }
        } catch (IOException ignored) {
            // the client reset or the test ended: nothing more to count
        }
    }

    static void write(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    URI url(String path) {
        return URI.create("http://" + listener.getInetAddress().getHostAddress() + ":" + port() + path);
    }

    int port() {
        return listener.getLocalPort();
    }

    int connections() {
        return connections.get();
    }

    long bytesReceived() {
        return bytesReceived.get();
    }

    /**
     * The connections made before this call, counted only once all of them were accepted: a
     * probe connection of our own goes through the same FIFO accept queue, so once this very
     * probe is accepted (known by its port, not by a count another connection could satisfy),
     * so is anything that connected earlier. Probes are never counted.
     */
    int connectionsSoFar() throws IOException {
        try (Socket probe = new Socket()) {
            probe.bind(new InetSocketAddress(listener.getInetAddress(), 0));
            probePorts.add(probe.getLocalPort());
            probe.connect(new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort()));
            if (!Await.within(Duration.ofSeconds(5), () -> acceptedProbes.contains(probe.getLocalPort()))) {
                throw new IllegalStateException("the probe connection was never accepted");
            }
        }
        return connections.get();
    }

    /** Waits until at least {@code count} connections were accepted: the kernel completes a connect before accept returns. */
    boolean awaitConnections(int count, Duration deadline) {
        return Await.within(deadline, () -> connections.get() >= count);
    }

    /** Waits until every accepted connection was closed by the client (or timed out here). */
    boolean awaitAllClosed(Duration deadline) {
        return Await.within(deadline, () -> finished.get() >= connections.get());
    }

    ConcurrentLinkedQueue<Throwable> errors() {
        return errors;
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        executor.shutdownNow();
    }
}
