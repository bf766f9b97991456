package dev.tributary.api.stream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/** Plain sockets to the API, for stream tests that need what an HTTP client hides (headers as sent, a client that stops reading). */
final class RawSockets {

    private static final int READ_TIMEOUT_MILLIS = 30_000;

    private RawSockets() {
    }

    /** A connection to the loopback API; {@code receiveBuffer} bytes of window if positive, set before connecting so it holds. */
    static Socket connect(int port, int receiveBuffer) throws IOException {
        Socket socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        return socket;
    }

    static void send(Socket socket, String request) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /**
     * Reads to the end of the connection, dropping what was sent before it: returns once the
     * server closed (or reset) it, fails if it is still open after the read timeout.
     */
    static void awaitClosedByServer(InputStream in) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        try {
            while (in.read(buffer) >= 0) {
                // events written before the close
            }
        } catch (SocketTimeoutException stillOpen) {
            throw new AssertionError("the server did not close the connection within " + READ_TIMEOUT_MILLIS + " ms", stillOpen);
        } catch (SocketException reset) {
            // closed with a reset: closed all the same
        }
    }
}
