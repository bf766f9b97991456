package dev.tributary.api.stream;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.WebConnection;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.coyote.http11.upgrade.InternalHttpUpgradeHandler;
import org.apache.tomcat.util.net.AbstractEndpoint.Handler.SocketState;
import org.apache.tomcat.util.net.SSLSupport;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.jspecify.annotations.Nullable;

/**
 * A live stream's HTTP/1.x connection once its response headers are sent: public only because
 * Tomcat instantiates it ({@link HttpServletRequest#upgrade}).
 *
 * <p>Why not an async request: Tomcat keeps, for every async request, its request and response
 * objects and their buffers (~90 KB of heap; docs/benchmarks.md), and 10,000 open streams are
 * 10,000 async requests. An upgraded connection gives the HTTP processor back at once and keeps
 * only the socket and its two buffers. The response stays plain HTTP: status 200,
 * {@code text/event-stream}, every header the filters set, and {@code Connection: close}, so its
 * body is the events until the server closes the connection, as RFC 9112 allows and every
 * Server-Sent Events client reads.
 */
public final class LiveConnection implements InternalHttpUpgradeHandler, StreamOutput {

    /** Bytes a client may send on its stream (it has no reason to send any) before it is closed. */
    private static final int MAX_INPUT = 64 * 1024;

    private final CompletableFuture<SocketWrapperBase<?>> socket = new CompletableFuture<>();
    private final ReentrantLock writing = new ReentrantLock();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicBoolean gone = new AtomicBoolean();
    private volatile Duration writeTimeout = Duration.ofSeconds(30);
    private volatile Runnable onEnd = () -> { };
    private long inputBytes;

    /** For Tomcat only; {@link #upgrade} is how a stream gets one. */
    public LiveConnection() {
    }

    /**
     * Takes over the request's connection for a stream: sends the response's status (200) and
     * headers now, then {@code onEnd} runs once the connection is gone, whoever ended it. Null
     * when the connection cannot be taken over (HTTP/2, a container other than Tomcat): the
     * response is then untouched, and the caller streams another way.
     */
    static @Nullable LiveConnection upgrade(HttpServletRequest request, HttpServletResponse response, Duration writeTimeout,
            Runnable onEnd) throws IOException {
        if (!request.getProtocol().startsWith("HTTP/1.")) {
            return null;
        }
        LiveConnection connection;
        try {
            connection = request.upgrade(LiveConnection.class);
        } catch (ServletException | UnsupportedOperationException | IllegalStateException notHere) {
            return null;
        }
        connection.writeTimeout = writeTimeout;
        connection.onEnd = onEnd;
        // upgrade() set 101; this stays an HTTP response, delimited by the connection's close.
        response.setStatus(HttpServletResponse.SC_OK);
        response.setHeader("Connection", "close");
        try {
            response.flushBuffer();
        } catch (IOException clientGone) {
            connection.end();
            throw clientGone;
        }
        return connection;
    }

    @Override
    public void write(byte[] frames) throws IOException {
        SocketWrapperBase<?> wrapper = connected();
        writing.lock();
        try {
            if (ended.get()) {
                throw new IOException("the live stream's connection is closed");
            }
            wrapper.write(true, frames, 0, frames.length);
            wrapper.flush(true);
        } catch (IOException e) {
            end();
            throw e;
        } finally {
            writing.unlock();
        }
    }

    /** The socket, once Tomcat has handed it over; a connection never handed over in a write timeout is dead. */
    private SocketWrapperBase<?> connected() throws IOException {
        try {
            return socket.get(writeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            end();
            throw new IOException("the live stream's connection was never handed over", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the live stream's connection", e);
        }
    }

    /**
     * Closes the connection from any thread without waiting: a write in progress (to a client not
     * reading) fails at once instead of at its timeout.
     */
    @Override
    public void end() {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        SocketWrapperBase<?> wrapper = socket.getNow(null);
        if (wrapper != null) {
            wrapper.close(); // Tomcat then calls destroy(), which runs onEnd
        } else {
            // Not handed over yet (or never will be): its first dispatch closes it.
            socket.completeExceptionally(new IOException("ended before the connection was handed over"));
            gone();
        }
    }

    @Override
    public void setSocketWrapper(SocketWrapperBase<?> wrapper) {
        // Tomcat sets no timeouts on an upgraded connection; a client that stops reading must not hold a writer forever.
        wrapper.setWriteTimeout(writeTimeout.toMillis());
        // Ended before this: the first dispatch closes it (closing here, mid-hand-over, would confuse Tomcat's processor pool).
        socket.complete(wrapper);
    }

    @Override
    public void init(WebConnection connection) {
        // Everything needed came with setSocketWrapper.
    }

    /** A read event: the client closed the connection (the usual end of a stream), or sent bytes, which are dropped. */
    @Override
    public SocketState upgradeDispatch(SocketEvent status) {
        if (ended.get()) {
            return SocketState.CLOSED;
        }
        if (status != SocketEvent.OPEN_READ && status != SocketEvent.OPEN_WRITE) {
            return SocketState.CLOSED; // STOP, DISCONNECT, ERROR, TIMEOUT
        }
        if (status == SocketEvent.OPEN_READ && !drainInput()) {
            return SocketState.CLOSED;
        }
        return SocketState.UPGRADED;
    }

    /** Reads what the client sent, dropping it; false once it closed, failed or sent too much. */
    private boolean drainInput() {
        SocketWrapperBase<?> wrapper = socket.getNow(null);
        if (wrapper == null) {
            return true;
        }
        ByteBuffer sink = ByteBuffer.allocate(512);
        try {
            for (int n = wrapper.read(false, sink); n != 0; n = wrapper.read(false, sink)) {
                if (n < 0) {
                    return false;
                }
                inputBytes += n;
                if (inputBytes > MAX_INPUT) {
                    return false;
                }
                sink.clear();
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Tomcat is done with the connection (closed by either side, or at shutdown). */
    @Override
    public void destroy() {
        ended.set(true);
        gone();
    }

    private void gone() {
        if (gone.compareAndSet(false, true)) {
            onEnd.run();
        }
    }

    @Override
    public void timeoutAsync(long now) {
        // The stream's own loop ends it at its maximum duration.
    }

    @Override
    public void setSslSupport(SSLSupport sslSupport) {
        // Not needed: the stream never asks about TLS.
    }

    @Override
    public void pause() {
        // Nothing to pause: the stream ends with the node (HomeStreams.stop).
    }
}
