package dev.tributary.api.bench;

import dev.tributary.pubsub.bench.Bench;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP/1.1 load generator: {@code connections} keep-alive connections, each a virtual thread
 * on a raw socket sending one GET at a time with the next bearer token in turn. Closed loop (each
 * connection sends as soon as its last answer is in: the server's most requests/s), or paced
 * ({@link #runPaced}: the connections together send a fixed number of requests a second, each on
 * its own schedule, and a latency counts from when its request was due, so a stalled server is
 * not hidden by requests that were never sent, as wrk2 measures it).
 * A run is a warm-up then a measured window, and also stops at a cap on requests; only the
 * responses completed inside the window are counted. A connection the server closes (Tomcat
 * closes one every 100 requests by default) is reopened and counted.
 */
final class LoadGenerator implements Load {

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int READ_TIMEOUT_MILLIS = 30_000;

    private final InetSocketAddress server;
    private final List<String> credentials;
    /** One path per credential (each caller asks for their own items), or null: every caller the run's path. */
    private final @Nullable List<String> paths;

    /** {@code credentials}: one header line per caller (e.g. {@code Cookie: ...}), sent in turn. */
    LoadGenerator(InetSocketAddress server, List<String> credentials) {
        if (credentials.isEmpty()) {
            throw new IllegalArgumentException("no credentials to send");
        }
        this.server = server;
        this.credentials = List.copyOf(credentials);
        this.paths = null;
    }

    /** Each caller sends their own path with their own credential line. */
    LoadGenerator(InetSocketAddress server, List<String> credentials, List<String> paths) {
        if (credentials.isEmpty() || credentials.size() != paths.size()) {
            throw new IllegalArgumentException("one path per credential, and at least one");
        }
        this.server = server;
        this.credentials = List.copyOf(credentials);
        this.paths = List.copyOf(paths);
    }

    /** Requests with {@code Authorization: Bearer} and each token in turn. */
    static LoadGenerator bearer(InetSocketAddress server, List<String> tokens) {
        return new LoadGenerator(server, tokens.stream().map(token -> "Authorization: Bearer " + token).toList());
    }

    /**
     * What one run measured, counting only what completed inside the measured window:
     * {@code requests} are the 2xx responses (the only ones with a latency), the rest are errors.
     */
    record Result(long requests, double seconds, LatencyHistogram latencies, Map<Integer, Long> failedStatuses,
            long ioErrors, long reconnects, long bodyBytes, boolean capped) {

        double rate() {
            return seconds > 0 ? requests / seconds : Double.NaN;
        }

        /** Responses that were not 2xx, plus requests lost to I/O errors. */
        long errors() {
            return failedStatuses.values().stream().mapToLong(Long::longValue).sum() + ioErrors;
        }

        double averageBodyBytes() {
            long answered = latencies.count();
            return answered == 0 ? Double.NaN : (double) bodyBytes / answered;
        }
    }

    /** Runs {@code connections} connections on {@code path} for {@code warmup + measured}, or until {@code maxRequests}. */
    Result run(String path, int connections, Duration warmup, Duration measured, long maxRequests) {
        return run(path, "application/json", connections, warmup, measured, maxRequests);
    }

    /** The same, asking for {@code accept} (a page asks for {@code text/html}). */
    @Override
    public Result run(String path, String accept, int connections, Duration warmup, Duration measured, long maxRequests) {
        return run(path, accept, connections, 0, warmup, measured, maxRequests);
    }

    /**
     * As {@link #run(String, String, int, Duration, Duration, long)}, with the connections sending
     * {@code perSecond} requests a second together, each connection every {@code connections /
     * perSecond} seconds, their schedules spread evenly; a latency is from the request's due time.
     */
    @Override
    public Result runPaced(String path, String accept, int connections, double perSecond, Duration warmup, Duration measured,
            long maxRequests) {
        if (!(perSecond > 0)) {
            throw new IllegalArgumentException("a paced run needs a positive rate, not " + perSecond);
        }
        return run(path, accept, connections, perSecond, warmup, measured, maxRequests);
    }

    private Result run(String path, String accept, int connections, double perSecond, Duration warmup, Duration measured,
            long maxRequests) {
        byte[] head = ("GET " + path + " HTTP/1.1\r\nHost: " + server.getHostString() + ":" + server.getPort()
                + "\r\nAccept: " + accept + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[][] auth = new byte[credentials.size()][];
        for (int i = 0; i < auth.length; i++) {
            String requestLine = paths == null ? "" : "GET " + paths.get(i) + " HTTP/1.1\r\nHost: " + server.getHostString()
                    + ":" + server.getPort() + "\r\nAccept: " + accept + "\r\n";
            auth[i] = (requestLine + credentials.get(i) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        }
        AtomicInteger nextToken = new AtomicInteger();
        AtomicLong issued = new AtomicLong();
        long start = System.nanoTime();
        long measureFrom = start + warmup.toNanos();
        long measureUntil = measureFrom + measured.toNanos();
        List<Connection> all = new ArrayList<>(connections);
        List<Thread> threads = new ArrayList<>(connections);
        long interval = perSecond > 0 ? Math.max(1, (long) (connections * 1e9 / perSecond)) : 0;
        for (int c = 0; c < connections; c++) {
            Connection connection = new Connection(head, auth, nextToken, issued, maxRequests, measureFrom, measureUntil,
                    interval, start + interval * c / connections);
            all.add(connection);
            threads.add(Thread.ofVirtual().name("load-" + c).start(connection::loop));
        }
        Bench.join(threads, warmup.plus(measured).plusMillis(READ_TIMEOUT_MILLIS).plusSeconds(30));
        long stopped = all.stream().mapToLong(c -> c.lastDone).max().orElse(measureFrom);
        double seconds = Math.max(0, Math.min(measureUntil, stopped) - measureFrom) / 1e9;
        LatencyHistogram latencies = new LatencyHistogram();
        Map<Integer, Long> failed = new TreeMap<>();
        long ioErrors = 0;
        long reconnects = 0;
        long bytes = 0;
        for (Connection connection : all) {
            latencies.add(connection.latencies);
            connection.failed.forEach((status, n) -> failed.merge(status, n, Long::sum));
            ioErrors += connection.ioErrors;
            reconnects += connection.reconnects;
            bytes += connection.bodyBytes;
        }
        return new Result(latencies.count(), seconds, latencies, failed, ioErrors, reconnects, bytes, issued.get() > maxRequests);
    }

    /** One keep-alive connection and its own figures (merged after the run, so nothing is shared while it runs). */
    private final class Connection {
        private final byte[] head;
        private final byte[][] auth;
        private final AtomicInteger nextToken;
        private final AtomicLong issued;
        private final long maxRequests;
        private final long measureFrom;
        private final long measureUntil;
        /** Nanoseconds between this connection's requests when paced; 0: closed loop. */
        private final long interval;
        /** When the next paced request is due. */
        private long due;

        final LatencyHistogram latencies = new LatencyHistogram();
        final Map<Integer, Long> failed = new TreeMap<>();
        long ioErrors;
        long reconnects;
        long bodyBytes;
        volatile long lastDone;

        private Socket socket;
        private InputStream in;
        private OutputStream out;

        Connection(byte[] head, byte[][] auth, AtomicInteger nextToken, AtomicLong issued, long maxRequests,
                long measureFrom, long measureUntil, long interval, long firstDue) {
            this.interval = interval;
            this.due = firstDue;
            this.head = head;
            this.auth = auth;
            this.nextToken = nextToken;
            this.issued = issued;
            this.maxRequests = maxRequests;
            this.measureFrom = measureFrom;
            this.measureUntil = measureUntil;
        }

        void loop() {
            try {
                while (System.nanoTime() < measureUntil && (interval == 0 || due < measureUntil)
                        && issued.incrementAndGet() <= maxRequests) {
                    exchange();
                }
            } finally {
                close();
            }
        }

        private void exchange() {
            long began = interval == 0 ? System.nanoTime() : nextDue();
            try {
                if (socket == null) {
                    open();
                }
                if (paths == null) {
                    out.write(head);
                }
                out.write(auth[Math.floorMod(nextToken.getAndIncrement(), auth.length)]);
                out.flush();
                Response response = Response.read(in);
                long done = System.nanoTime();
                lastDone = done;
                if (done >= measureFrom && done < measureUntil) {
                    if (response.status() / 100 == 2) {
                        latencies.record(done - began);
                        bodyBytes += response.bodyBytes();
                    } else {
                        failed.merge(response.status(), 1L, Long::sum);
                    }
                }
                if (response.close()) {
                    close();
                    reconnects++;
                }
            } catch (IOException e) {
                long done = System.nanoTime();
                lastDone = done;
                if (done >= measureFrom && done < measureUntil) {
                    ioErrors++;
                }
                close();
                Bench.park(10); // a refused connection must not spin
            }
        }

        /**
         * Waits for the next paced request's due time and returns it; a request already late
         * (the last answer came after it) goes at once and its wait counts in its latency.
         */
        private long nextDue() {
            long at = due;
            due += interval;
            for (long left = at - System.nanoTime(); left > 0; left = at - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
            return at;
        }

        private void open() throws IOException {
            Socket opened = new Socket();
            opened.setTcpNoDelay(true);
            opened.setSoTimeout(READ_TIMEOUT_MILLIS);
            opened.connect(server, CONNECT_TIMEOUT_MILLIS);
            socket = opened;
            in = new BufferedInputStream(opened.getInputStream(), 64 * 1024);
            out = new BufferedOutputStream(opened.getOutputStream(), 1024);
        }

        private void close() {
            if (socket != null) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing a broken connection: nothing left to lose
                }
                socket = null;
            }
        }
    }

    /** The parts of an HTTP/1.1 response the generator needs; the body is read and dropped. */
    record Response(int status, long bodyBytes, boolean close) {

        private static final int MAX_LINE = 8 * 1024;

        static Response read(InputStream in) throws IOException {
            String statusLine = line(in);
            if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
                throw new IOException("not an HTTP/1.1 status line: " + statusLine);
            }
            int status = Integer.parseInt(statusLine.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            boolean close = false;
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                int colon = header.indexOf(':');
                if (colon < 0) {
                    throw new IOException("malformed header: " + header);
                }
                String name = header.substring(0, colon).trim();
                String value = header.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("Content-Length")) {
                    length = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("Transfer-Encoding")) {
                    chunked = value.toLowerCase(java.util.Locale.ROOT).contains("chunked");
                } else if (name.equalsIgnoreCase("Connection")) {
                    close = value.equalsIgnoreCase("close");
                }
            }
            long body;
            if (status == 204 || status == 304 || status / 100 == 1) {
                body = 0;
            } else if (chunked) {
                body = chunks(in);
            } else if (length >= 0) {
                skip(in, length);
                body = length;
            } else {
                body = in.transferTo(OutputStream.nullOutputStream()); // delimited by the connection's end
                close = true;
            }
            return new Response(status, body, close);
        }

        private static long chunks(InputStream in) throws IOException {
            long total = 0;
            while (true) {
                String sizeLine = line(in);
                int extension = sizeLine.indexOf(';');
                long size = Long.parseLong((extension < 0 ? sizeLine : sizeLine.substring(0, extension)).trim(), 16);
                if (size == 0) {
                    while (!line(in).isEmpty()) {
                        // trailers: none expected, read past them
                    }
                    return total;
                }
                skip(in, size);
                total += size;
                if (!line(in).isEmpty()) {
                    throw new IOException("chunk not followed by CRLF");
                }
            }
        }

        private static void skip(InputStream in, long count) throws IOException {
            long left = count;
            while (left > 0) {
                long skipped = in.skip(left);
                if (skipped <= 0) {
                    if (in.read() < 0) {
                        throw new EOFException("body ended " + left + " bytes early");
                    }
                    skipped = 1;
                }
                left -= skipped;
            }
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder(64);
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new EOFException("connection closed mid-response");
                }
                if (b != '\r') {
                    line.append((char) b);
                }
                if (line.length() > MAX_LINE) {
                    throw new IOException("line longer than " + MAX_LINE);
                }
            }
            return line.toString();
        }
    }
}
