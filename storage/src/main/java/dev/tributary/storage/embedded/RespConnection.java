package dev.tributary.storage.embedded;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A bare RESP2 connection to one Redis node, enough to set up the embedded cluster (MEET,
 * ADDSLOTS, INFO, SLOTS) before any Spring bean or Lettuce client exists. Replies come back as
 * {@code String}, {@code Long}, {@code List} or null; an error reply throws.
 */
final class RespConnection implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    /** Connects and authenticates with the embedded servers' password. */
    RespConnection(int port, String password) {
        this(port);
        call("AUTH", password);
    }

    RespConnection(int port) {
        try {
            socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            socket.setSoTimeout(5_000);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot connect to Redis on 127.0.0.1:" + port, e);
        }
    }

    Object call(List<String> command) {
        try {
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.write(("*" + command.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (String part : command) {
                byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                request.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                request.write(bytes);
                request.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write(request.toByteArray());
            out.flush();
            return reply();
        } catch (IOException e) {
            throw new UncheckedIOException("Redis call " + command.getFirst() + " failed", e);
        }
    }

    Object call(String... command) {
        return call(List.of(command));
    }

    private Object reply() throws IOException {
        int type = in.read();
        String line = line();
        return switch (type) {
            case '+' -> line;
            case '-' -> throw new IllegalStateException("Redis answered: " + line);
            case ':' -> Long.parseLong(line);
            case '$' -> {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    yield null;
                }
                byte[] body = in.readNBytes(length + 2);
                yield new String(body, 0, length, StandardCharsets.UTF_8);
            }
            case '*' -> {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    yield null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(reply());
                }
                yield items;
            }
            case -1 -> throw new IOException("Redis closed the connection");
            default -> throw new IOException("Unexpected RESP type " + (char) type);
        };
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int next = in.read();
            if (next < 0) {
                throw new IOException("Redis closed the connection");
            }
            if (previous == '\r' && next == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(next);
            previous = next;
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing a loopback socket to a server we own: nothing to do about it.
        }
    }
}
