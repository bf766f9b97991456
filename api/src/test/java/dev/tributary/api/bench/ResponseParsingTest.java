package dev.tributary.api.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseParsingTest {

    private static InputStream stream(String raw) {
        return new ByteArrayInputStream(raw.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aContentLengthBodyIsReadAndTheNextResponseFollows() throws IOException {
        InputStream in = stream("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]"
                + "HTTP/1.1 404 \r\nContent-Length: 5\r\n\r\nabcde");

        assertThat(LoadGenerator.Response.read(in)).isEqualTo(new LoadGenerator.Response(200, 2, false));
        assertThat(LoadGenerator.Response.read(in)).isEqualTo(new LoadGenerator.Response(404, 5, false));
    }

    @Test
    void aChunkedBodyIsReadToItsLastChunk() throws IOException {
        InputStream in = stream("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "4\r\nabcd\r\nA;ext=1\r\n0123456789\r\n0\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\n\r\n");

        assertThat(LoadGenerator.Response.read(in)).isEqualTo(new LoadGenerator.Response(200, 14, false));
        assertThat(LoadGenerator.Response.read(in)).isEqualTo(new LoadGenerator.Response(204, 0, false));
    }

    @Test
    void connectionCloseIsNoticedWhicheverCaseItIsWrittenIn() throws IOException {
        InputStream in = stream("HTTP/1.1 200 OK\r\nconnection: Close\r\ncontent-length: 1\r\n\r\nx");

        assertThat(LoadGenerator.Response.read(in)).isEqualTo(new LoadGenerator.Response(200, 1, true));
    }

    @Test
    void aBodyWithoutLengthRunsToTheEndOfTheConnection() throws IOException {
        InputStream in = stream("HTTP/1.1 500 Oops\r\n\r\nwhatever is left");

        assertThat(LoadGenerator.Response.read(in)).isEqualTo(new LoadGenerator.Response(500, 16, true));
    }

    @Test
    void aTruncatedResponseIsAnIoError() {
        assertThatThrownBy(() -> LoadGenerator.Response.read(stream("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")))
                .isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> LoadGenerator.Response.read(stream("HTTP/1.1 200 OK\r\nTransfer-")))
                .isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> LoadGenerator.Response.read(stream("SSH-2.0-OpenSSH\r\n\r\n")))
                .isInstanceOf(IOException.class);
    }
}
