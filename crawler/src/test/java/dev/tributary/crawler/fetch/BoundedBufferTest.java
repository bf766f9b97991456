package dev.tributary.crawler.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BoundedBufferTest {

    private static final long LIMIT = 20L * 1024 * 1024;

    @Test
    void aHugeDeclaredSizeReservesNothingBeyondTheFirstChunkBeforeBytesArrive() {
        BoundedBuffer buffer = new BoundedBuffer(LIMIT, 10L * 1024 * 1024, FailureReason.TOO_LARGE);

        assertThat(buffer.array().length).isLessThanOrEqualTo(BoundedBuffer.MAX_INITIAL);

        buffer.write(ByteBuffer.wrap("a trickle".getBytes()));
        assertThat(buffer.array().length).as("a few bytes sent reserve no more").isLessThanOrEqualTo(BoundedBuffer.MAX_INITIAL);
        assertThat(buffer.toByteArray()).asString().isEqualTo("a trickle");
    }

    @Test
    void growsAsBytesArriveAndKeepsThemAll() {
        BoundedBuffer buffer = new BoundedBuffer(LIMIT, 10L * 1024 * 1024, FailureReason.TOO_LARGE);
        byte[] chunk = new byte[50_000];
        for (int i = 0; i < 10; i++) {
            Arrays.fill(chunk, (byte) i);
            buffer.write(ByteBuffer.wrap(chunk));
        }

        byte[] body = buffer.toByteArray();
        assertThat(body).hasSize(500_000);
        assertThat(body[0]).isZero();
        assertThat(body[499_999]).isEqualTo((byte) 9);
        assertThat(buffer.array().length).as("grown by doubling, not to the declared size").isLessThan(1024 * 1024);
    }

    @Test
    void aSmallDeclaredSizeIsAllocatedOnce() {
        BoundedBuffer buffer = new BoundedBuffer(LIMIT, 3000, FailureReason.TOO_LARGE);

        assertThat(buffer.array()).hasSize(3000);
    }

    @Test
    void theLimitStillHoldsWhateverWasDeclared() {
        BoundedBuffer buffer = new BoundedBuffer(100, 10, FailureReason.TOO_LARGE);

        assertThatThrownBy(() -> buffer.write(ByteBuffer.wrap(new byte[101])))
                .isInstanceOfSatisfying(FetchAbort.class, abort -> assertThat(abort.reason()).isEqualTo(FailureReason.TOO_LARGE));
    }
}
