package dev.tributary.crawler.fetch;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * Takes one response body as it streams in: counts the bytes as sent against
 * {@code maxBodyBytes} and hands them to the {@link BodyDecoder}, which holds the decoded limit.
 * Netty releases each chunk after it is passed on, so nothing here keeps a {@link ByteBuf}.
 */
final class BodyReader {

    private final long maxBodyBytes;
    private final BodyDecoder decoder;
    private long received;
    private boolean closed;

    BodyReader(long maxBodyBytes, BodyDecoder decoder) {
        this.maxBodyBytes = maxBodyBytes;
        this.decoder = decoder;
    }

    // Synchronized because a cancel (total timeout) may close while the event loop still writes.
    synchronized void accept(ByteBuf chunk) {
        if (closed) {
            return;
        }
        received += chunk.readableBytes();
        if (received > maxBodyBytes) {
            throw new FetchAbort(FailureReason.TOO_LARGE, "body is larger than " + maxBodyBytes + " bytes");
        }
        if (chunk.nioBufferCount() == 1) {
            decoder.write(chunk.nioBuffer());
        } else {
            for (ByteBuffer part : chunk.nioBuffers()) {
                decoder.write(part);
            }
        }
    }

    synchronized byte[] finish() {
        return decoder.finish();
    }

    synchronized void close() {
        closed = true;
        decoder.close();
    }
}
