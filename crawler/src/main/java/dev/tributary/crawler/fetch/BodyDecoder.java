package dev.tributary.crawler.fetch;

import java.nio.ByteBuffer;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Undoes a response's {@code Content-Encoding} chunk by chunk into a {@link BoundedBuffer}, so
 * the decoded size limit holds while decoding, not after.
 */
sealed interface BodyDecoder permits BodyDecoder.Identity, InflatingDecoder {

    /** Decodes all of {@code chunk}; it is not kept after the call returns. */
    void write(ByteBuffer chunk);

    /** The decoded body, once the last chunk was written; fails when the encoding was cut short. */
    byte[] finish();

    /** Frees native memory; safe to call more than once and after a failure. */
    void close();

    /**
     * @param contentEncoding the response header, or null
     * @param sizeHint the Content-Length, or -1
     * @throws FetchAbort (PROTOCOL) for an encoding that was not asked for
     */
    static BodyDecoder forEncoding(@Nullable String contentEncoding, long sizeHint, FetchLimits limits) {
        String encoding = contentEncoding == null ? "" : contentEncoding.strip().toLowerCase(Locale.ROOT);
        return switch (encoding) {
            case "", "identity" -> new Identity(new BoundedBuffer(limits.maxDecompressedBytes(), sizeHint, FailureReason.TOO_LARGE));
            case "gzip", "x-gzip" -> new InflatingDecoder(true, inflatedBuffer(sizeHint, limits));
            case "deflate" -> new InflatingDecoder(false, inflatedBuffer(sizeHint, limits));
            default -> throw new FetchAbort(FailureReason.PROTOCOL, "body has an unsupported Content-Encoding");
        };
    }

    private static BoundedBuffer inflatedBuffer(long sizeHint, FetchLimits limits) {
        // Feeds compress about 4 to 10 times; guessing low costs a copy, guessing high wastes memory.
        long guess = sizeHint < 0 ? -1 : Math.max(16 * 1024, sizeHint * 4);
        return new BoundedBuffer(limits.maxDecompressedBytes(), guess, FailureReason.DECOMPRESSED_TOO_LARGE);
    }

    /** A body sent as is. */
    final class Identity implements BodyDecoder {

        private final BoundedBuffer out;

        Identity(BoundedBuffer out) {
            this.out = out;
        }

        @Override
        public void write(ByteBuffer chunk) {
            out.write(chunk);
        }

        @Override
        public byte[] finish() {
            return out.toByteArray();
        }

        @Override
        public void close() {
        }
    }
}
