package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class IdGeneratorTest {

    private static final long START = Instant.parse("2026-11-21T00:00:00Z").toEpochMilli();

    @Test
    void idsCarryTimeNodeAndSequence() {
        var generator = new IdGenerator(NodeSlot.fixed(513), () -> START);
        long first = generator.next();
        long second = generator.next();
        assertThat(first).isPositive();
        assertThat(second).isEqualTo(first + 1);
        assertThat(IdGenerator.timestampOf(first)).isEqualTo(Instant.ofEpochMilli(START));
        assertThat(IdGenerator.nodeOf(first)).isEqualTo(513);
        assertThat(IdGenerator.lowestIdAt(Instant.ofEpochMilli(START))).isLessThanOrEqualTo(first)
                .isGreaterThan(IdGenerator.lowestIdAt(Instant.ofEpochMilli(START - 1)));
    }

    @Test
    void sequenceOverflowMovesToTheNextMillisecond() {
        // The clock stands still for 5000 reads, then moves on: 4096 ids fit in the first millisecond.
        AtomicLong reads = new AtomicLong();
        var generator = new IdGenerator(NodeSlot.fixed(1), () -> START + (reads.incrementAndGet() > 5000 ? 1 : 0));
        long previous = 0;
        for (int i = 0; i < 4097; i++) {
            long id = generator.next();
            assertThat(id).isGreaterThan(previous);
            previous = id;
        }
        assertThat(IdGenerator.timestampOf(previous)).isEqualTo(Instant.ofEpochMilli(START + 1));
        assertThat(previous & IdGenerator.MAX_SEQUENCE).isZero();
    }

    @Test
    void aSmallBackwardsStepIsWaitedOutAndIdsStillIncrease() {
        AtomicLong now = new AtomicLong(START + 100);
        var generator = new IdGenerator(NodeSlot.fixed(1), () -> now.get() < START + 100 ? now.incrementAndGet() : now.get());
        long before = generator.next();
        now.set(START + 50); // 50 ms back; the fake clock then ticks forward on every read
        long after = generator.next();
        assertThat(after).isGreaterThan(before);
        assertThat(IdGenerator.timestampOf(after)).isAfterOrEqualTo(IdGenerator.timestampOf(before));
    }

    @Test
    void aLargeBackwardsStepFailsRatherThanRepeatIds() {
        AtomicLong now = new AtomicLong(START + 10_000);
        var generator = new IdGenerator(NodeSlot.fixed(1), now::get);
        generator.next();
        now.set(START);
        assertThatThrownBy(generator::next)
                .isInstanceOf(IdGenerationException.class)
                .hasMessageContaining("backwards by 10000 ms");
        now.set(START + 10_001);
        assertThat(generator.next()).isPositive();
    }

    @Test
    void aClockBeforeTheEpochIsRefused() {
        var generator = new IdGenerator(NodeSlot.fixed(1), () -> IdGenerator.EPOCH.toEpochMilli() - 1);
        assertThatThrownBy(generator::next).isInstanceOf(IdGenerationException.class);
    }

    @Test
    void nodeIdsOutsideTenBitsAreRejected() {
        assertThatThrownBy(() -> NodeSlot.fixed(1024)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NodeSlot.fixed(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fourThreadsOnTwoNodesGetUniqueIdsIncreasingPerThread() throws Exception {
        var a = new IdGenerator(NodeSlot.fixed(3), System::currentTimeMillis);
        var b = new IdGenerator(NodeSlot.fixed(4), System::currentTimeMillis);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<long[]>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                IdGenerator generator = t % 2 == 0 ? a : b;
                futures.add(pool.submit(() -> {
                    long[] ids = new long[20_000];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = generator.next();
                    }
                    return ids;
                }));
            }
            Set<Long> all = new HashSet<>();
            for (int t = 0; t < 4; t++) {
                long[] ids = futures.get(t).get(60, TimeUnit.SECONDS);
                for (int i = 0; i < ids.length; i++) {
                    if (i > 0) {
                        assertThat(ids[i]).as("thread %d id %d", t, i).isGreaterThan(ids[i - 1]);
                    }
                    assertThat(IdGenerator.nodeOf(ids[i])).isEqualTo(t % 2 == 0 ? 3 : 4);
                    all.add(ids[i]);
                }
            }
            assertThat(all).hasSize(80_000);
        } finally {
            pool.shutdownNow();
        }
    }
}
