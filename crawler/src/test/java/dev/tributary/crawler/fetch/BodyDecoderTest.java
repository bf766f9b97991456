package dev.tributary.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.crawler.fetch.FeedFetcherTest.Compress;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Streaming decoding of bodies, chunk by chunk, within the decoded limit. */
class BodyDecoderTest {

    private static final byte[] TEXT = ("<item><title>Decoding, one chunk at a time</title><description>"
            + "The same words again and again compress well. </description></item>").repeat(400).getBytes(StandardCharsets.UTF_8);
    private static final FetchLimits LIMITS = TestLimits.testServerAllowed().build();

    /** Feeds {@code body} in chunks of {@code size} bytes, in direct buffers as Netty would. */
    private static byte[] decode(BodyDecoder decoder, byte[] body, int size) {
        try {
            for (int at = 0; at < body.length; at += size) {
                int n = Math.min(size, body.length - at);
                ByteBuffer chunk = ByteBuffer.allocateDirect(n).put(body, at, n).flip();
                decoder.write(chunk);
                assertThat(chunk.hasRemaining()).isFalse();
            }
            return decoder.finish();
        } finally {
            decoder.close();
        }
    }

    private static BodyDecoder decoder(String encoding) {
        return BodyDecoder.forEncoding(encoding, -1, LIMITS);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 10, 11, 512, 100_000})
    void decodesGzipWhateverTheChunking(int chunkSize) {
        assertThat(decode(decoder("gzip"), Compress.gzip(TEXT), chunkSize)).isEqualTo(TEXT);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4096})
    void decodesZlibAndRawDeflateAsDeflate(int chunkSize) throws Exception {
        assertThat(decode(decoder("deflate"), Compress.deflate(TEXT, false), chunkSize)).isEqualTo(TEXT);
        assertThat(decode(decoder("Deflate "), Compress.deflate(TEXT, true), chunkSize)).isEqualTo(TEXT);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 64})
    void readsEveryOptionalGzipHeaderField(int chunkSize) throws Exception {
        byte[] gzip = gzipWithAllHeaderFields(TEXT);

        // The JDK's own reader agrees the hand-built member is valid.
        try (var jdk = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gzip))) {
            assertThat(jdk.readAllBytes()).isEqualTo(TEXT);
        }
        assertThat(decode(decoder("gzip"), gzip, chunkSize)).isEqualTo(TEXT);
    }

    @Test
    void decodesConcatenatedGzipMembersAndIgnoresTrailingJunk() {
        byte[] first = Compress.gzip("first half, ".getBytes(StandardCharsets.UTF_8));
        byte[] second = Compress.gzip("second half".getBytes(StandardCharsets.UTF_8));
        byte[] both = concat(first, second, new byte[] {0, 0, 0, 0});

        assertThat(new String(decode(decoder("x-gzip"), both, 3), StandardCharsets.UTF_8)).isEqualTo("first half, second half");
        assertThat(new String(decode(decoder("gzip"), concat(first, new byte[] {0x1f, 0x00, 0x12}), 1), StandardCharsets.UTF_8))
                .isEqualTo("first half, ");
    }

    @Test
    void anEmptyCompressedBodyIsAnEmptyBody() {
        assertThat(decode(decoder("gzip"), new byte[0], 1)).isEmpty();
        assertThat(decode(decoder("deflate"), new byte[0], 1)).isEmpty();
    }

    @Test
    void stopsAGzipBombSoonAfterTheLimitWithoutInflatingTheRest() {
        long limit = 1024 * 1024;
        byte[] bomb = Compress.gzip(new byte[10 * 1024 * 1024]);
        BoundedBuffer out = new BoundedBuffer(limit, -1, FailureReason.DECOMPRESSED_TOO_LARGE);
        InflatingDecoder decoder = new InflatingDecoder(true, out);
        int chunk = 512;
        int fed = 0;
        try {
            assertThatThrownBy(() -> {
                for (int at = 0; at < bomb.length; at += chunk) {
                    decoder.write(ByteBuffer.wrap(bomb, at, Math.min(chunk, bomb.length - at)));
                }
            }).isInstanceOfSatisfying(FetchAbort.class, abort -> {
                assertThat(abort.reason()).isEqualTo(FailureReason.DECOMPRESSED_TOO_LARGE);
                assertThat(abort.getMessage()).contains("once decompressed");
            });
            fed = out.size();
        } finally {
            decoder.close();
        }
        // At most one byte past the limit was ever inflated, and memory never went past it.
        assertThat(fed).isEqualTo(limit + 1);
        assertThat(out.array().length).isLessThanOrEqualTo((int) limit + 1);
    }

    @Test
    void stopsAnIdentityBodyAtTheLimitAsTooLarge() {
        BodyDecoder decoder = BodyDecoder.forEncoding(null, -1, TestLimits.testServerAllowed().maxDecompressedBytes(1000).build());

        assertThatThrownBy(() -> decode(decoder, new byte[1001], 300))
                .isInstanceOfSatisfying(FetchAbort.class, abort -> assertThat(abort.reason()).isEqualTo(FailureReason.TOO_LARGE));
    }

    @Test
    void allocatesAnIdentityBodyOnceWhenItsLengthIsKnown() {
        BoundedBuffer out = new BoundedBuffer(1_000_000, TEXT.length, FailureReason.TOO_LARGE);

        out.write(ByteBuffer.wrap(TEXT, 0, 1000));
        byte[] before = out.array();
        out.write(ByteBuffer.wrap(TEXT, 1000, TEXT.length - 1000));

        assertThat(out.array()).isSameAs(before);
        assertThat(out.toByteArray()).isSameAs(before).isEqualTo(TEXT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"truncated-gzip", "truncated-deflate", "corrupt-gzip", "bad-crc", "bad-size", "not-gzip", "bad-flags", "junk-deflate"})
    void brokenEncodingsAreProtocolErrors(String kind) throws Exception {
        byte[] gzip = Compress.gzip(TEXT);
        byte[] body = switch (kind) {
            case "truncated-gzip" -> Arrays.copyOf(gzip, gzip.length - 4);
            case "truncated-deflate" -> Arrays.copyOf(Compress.deflate(TEXT, true), 40);
            case "corrupt-gzip" -> flip(gzip, 12);
            case "bad-crc" -> flip(gzip, gzip.length - 8);
            case "bad-size" -> flip(gzip, gzip.length - 1);
            case "not-gzip", "junk-deflate" -> TEXT;
            case "bad-flags" -> flipTo(gzip, 3, 0x80);
            default -> throw new IllegalArgumentException(kind);
        };
        String encoding = kind.endsWith("deflate") ? "deflate" : "gzip";

        assertThatThrownBy(() -> decode(decoder(encoding), body, 100))
                .isInstanceOfSatisfying(FetchAbort.class, abort -> assertThat(abort.reason()).isEqualTo(FailureReason.PROTOCOL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd", "gzip, gzip", "compress", "bogus"})
    void refusesEncodingsThatWereNotAskedFor(String encoding) {
        assertThatThrownBy(() -> BodyDecoder.forEncoding(encoding, -1, LIMITS))
                .isInstanceOfSatisfying(FetchAbort.class, abort -> assertThat(abort.reason()).isEqualTo(FailureReason.PROTOCOL));
    }

    @Test
    void theBodyReaderCountsBytesAsSentAgainstMaxBodyBytes() {
        BodyReader reader = new BodyReader(1000, BodyDecoder.forEncoding("gzip", -1, LIMITS));
        byte[] noise = new byte[5000];
        new Random(3).nextBytes(noise);
        byte[] gzip = Compress.gzip(noise);
        ByteBuf first = Unpooled.wrappedBuffer(gzip, 0, 900);
        ByteBuf second = Unpooled.wrappedBuffer(gzip, 900, 200);
        try {
            reader.accept(first);
            assertThatThrownBy(() -> reader.accept(second))
                    .isInstanceOfSatisfying(FetchAbort.class, abort -> assertThat(abort.reason()).isEqualTo(FailureReason.TOO_LARGE));
        } finally {
            reader.close();
            first.release();
            second.release();
        }
    }

    private static byte[] gzipWithAllHeaderFields(byte[] body) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION, true);
        deflater.setInput(body);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] head = {0x1f, (byte) 0x8b, 8, 0x1e, 0, 0, 0, 0, 0, 3};
        out.writeBytes(head);
        out.writeBytes(new byte[] {4, 0, 'a', 'b', 'c', 'd'});
        out.writeBytes("feed.xml\0".getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes("a comment\0".getBytes(StandardCharsets.ISO_8859_1));
        CRC32 headerCrc = new CRC32();
        headerCrc.update(out.toByteArray());
        out.write((int) headerCrc.getValue() & 0xff);
        out.write((int) (headerCrc.getValue() >>> 8) & 0xff);
        byte[] buffer = new byte[8192];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        CRC32 crc = new CRC32();
        crc.update(body);
        writeLittleEndian(out, crc.getValue());
        writeLittleEndian(out, body.length);
        return out.toByteArray();
    }

    private static void writeLittleEndian(ByteArrayOutputStream out, long value) {
        for (int i = 0; i < 4; i++) {
            out.write((int) (value >>> (8 * i)) & 0xff);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] flip(byte[] bytes, int at) {
        return flipTo(bytes, at, bytes[at] ^ 0x55);
    }

    private static byte[] flipTo(byte[] bytes, int at, int value) {
        byte[] copy = bytes.clone();
        copy[at] = (byte) value;
        return copy;
    }
}
