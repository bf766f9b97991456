package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;

class BodyCodecTest {

    private final BodyCodec codec = new BodyCodec(64, 4096);

    @Test
    void smallBodiesAreStoredAsTaggedRawJson() {
        var body = new TestKinds.Doc(7, "hi");
        byte[] stored = codec.encode(1, body);
        assertThat(stored[0]).isEqualTo(BodyCodec.RAW_JSON);
        assertThat(new String(stored, 1, stored.length - 1, StandardCharsets.UTF_8)).isEqualTo("{\"group\":7,\"text\":\"hi\"}");
        assertThat(codec.decode(1, stored, TestKinds.Doc.class)).isEqualTo(body);
    }

    @Test
    void largerBodiesAreDeflatedAndRoundTrip() {
        var body = new TestKinds.Note("a title ".repeat(40), 3, 4, List.of("x", "ÿ€😀"), "https://example.com/a",
                Instant.parse("2026-11-21T10:15:30.123456Z"));
        byte[] stored = codec.encode(2, body);
        assertThat(stored[0]).isEqualTo(BodyCodec.DEFLATE_JSON);
        assertThat(stored.length).isLessThan(200);
        assertThat(codec.decode(2, stored, TestKinds.Note.class)).isEqualTo(body);
    }

    @Test
    void unknownFieldsInStoredJsonAreIgnoredSoRecordsCanLoseFields() {
        byte[] stored = tagged(BodyCodec.RAW_JSON, "{\"group\":1,\"text\":\"t\",\"gone\":true}".getBytes(StandardCharsets.UTF_8));
        assertThat(codec.decode(3, stored, TestKinds.Doc.class)).isEqualTo(new TestKinds.Doc(1, "t"));
    }

    @Test
    void bodiesOverTheMaximumAreRejectedNamingTheId() {
        var huge = new TestKinds.Doc(1, "x".repeat(5000));
        assertThatThrownBy(() -> codec.encode(42, huge))
                .isInstanceOf(BodyTooLargeException.class)
                .hasMessageContaining("42")
                .hasMessageContaining("4096");
    }

    @Test
    void corruptBodiesFailWithTheEntityId() {
        byte[] good = codec.encode(5, new TestKinds.Doc(1, "y".repeat(200)));
        byte[] truncated = Arrays.copyOf(good, good.length - 6);
        byte[] flipped = good.clone();
        flipped[good.length / 2] ^= 0x5A;
        List<byte[]> corrupt = List.of(
                new byte[0],
                new byte[] {9, '{', '}'},
                truncated,
                flipped,
                tagged(BodyCodec.RAW_JSON, "{\"group\":".getBytes(StandardCharsets.UTF_8)),
                tagged(BodyCodec.RAW_JSON, "{\"group\":1} trailing".getBytes(StandardCharsets.UTF_8)),
                tagged(BodyCodec.RAW_JSON, "null".getBytes(StandardCharsets.UTF_8)),
                tagged(BodyCodec.RAW_JSON, "[1,2]".getBytes(StandardCharsets.UTF_8)));
        for (byte[] bytes : corrupt) {
            assertThatThrownBy(() -> codec.decode(777, bytes, TestKinds.Doc.class))
                    .as("decoding %s", Arrays.toString(Arrays.copyOf(bytes, Math.min(12, bytes.length))))
                    .isInstanceOf(CorruptEntityException.class)
                    .hasMessageContaining("entity 777")
                    .satisfies(e -> assertThat(((CorruptEntityException) e).id()).isEqualTo(777));
        }
    }

    @Test
    void aDeflateBombIsStoppedAtTheInflateBound() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(BodyCodec.DEFLATE_JSON);
        try (var deflate = new DeflaterOutputStream(out)) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 17; i++) {
                deflate.write(zeros);
            }
        }
        assertThatThrownBy(() -> codec.decode(9, out.toByteArray(), TestKinds.Doc.class))
                .isInstanceOf(CorruptEntityException.class)
                .hasMessageContaining("inflates past");
    }

    private static byte[] tagged(byte tag, byte[] data) {
        byte[] out = new byte[data.length + 1];
        out[0] = tag;
        System.arraycopy(data, 0, out, 1, data.length);
        return out;
    }
}
