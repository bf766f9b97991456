package dev.tributary.api.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The load generator against a one-answer-per-connection server: what it does when the server closes. */
class LoadGeneratorTest {

    @Test
    void aConnectionTheServerClosesIsReopenedAndCounted() throws IOException {
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> answerOnceEach(listener));
            InetSocketAddress address = new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());

            LoadGenerator.Result result = LoadGenerator.bearer(address, List.of("t"))
                    .run("/x", 1, Duration.ZERO, Duration.ofSeconds(60), 5);

            assertThat(result.requests()).isEqualTo(5);
            assertThat(result.errors()).isZero();
            assertThat(result.reconnects()).as("each answer said Connection: close").isEqualTo(5);
        }
    }

    /** Reads one request's head per connection, answers 200 with {@code Connection: close}, and closes it. */
    private static void answerOnceEach(ServerSocket listener) {
        byte[] answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".getBytes(StandardCharsets.US_ASCII);
        while (!listener.isClosed()) {
            try (Socket socket = listener.accept(); InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream()) {
                int matched = 0;
                while (matched < 4) {
                    int b = in.read();
                    if (b < 0) {
                        break;
                    }
                    matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
                }
                out.write(answer);
                out.flush();
            } catch (IOException closed) {
                return;
            }
        }
    }
}
